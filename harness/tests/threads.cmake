# The submission's threads, counted by the sandbox's host whatever the route (pthread_create as
# std::thread calls it, the C library's own found with dlsym, a raw clone): the one past 256
# alive besides the main thread is refused and named, in the namespaces and without them
# (--no-sandbox), as the suite's user and as an ordinary user (.as-user). Included by
# CMakeLists.txt once overlap_adversarial and starts_a_thousand_threads are defined.
set(too_many "-DOUTPUT_MATCHES=tried to start more than 256 threads at once")
overlap_adversarial(pipeline threads_by_raw_clone 1 ${rejected} -DKINDS=sandbox
  "-DARGS=--scenario two-stage" ${too_many})
overlap_adversarial(pipeline threads_by_the_libc_pthread_create 1 ${rejected} -DKINDS=sandbox
  "-DARGS=--scenario two-stage" ${too_many})
# At the bound, twice (ended threads leave the count): nothing refused, train's own exception.
overlap_adversarial(pipeline threads_at_the_bound 1 ${rejected} -DKINDS=exception
  "-DARGS=--scenario two-stage"
  "-DOUTPUT_MATCHES=train threw: 256 threads alive at once, twice: none refused")

# overlap_threads_without_namespaces(<stem> <checks>...): adversarial.pipeline.<stem>, graded
# with --no-sandbox as the suite's user (.no-sandbox) and as an ordinary user
# (.no-sandbox.as-user); the checks' ARGS get --no-sandbox.
function(overlap_threads_without_namespaces stem args)
  foreach(user "" AS_USER)
    set(name adversarial.pipeline.${stem}.no-sandbox)
    if(user)
      string(APPEND name .as-user)
    endif()
    overlap_grade_test(${name} LABEL adversarial ${user} GRADER adversarial-pipeline-${stem}
      EXIT 1 CHECKS ${rejected} "-DARGS=${args} --no-sandbox" ${ARGN})
  endforeach()
endfunction()
foreach(stem starts_a_thousand_threads threads_by_raw_clone threads_by_the_libc_pthread_create)
  overlap_threads_without_namespaces(${stem} "--scenario two-stage" -DKINDS=sandbox ${too_many})
endforeach()
overlap_threads_without_namespaces(threads_at_the_bound "--scenario two-stage" -DKINDS=exception
  "-DOUTPUT_MATCHES=train threw: 256 threads alive at once, twice: none refused")
