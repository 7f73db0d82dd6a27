# Tests on generated scenarios (label `generated`), with expect_generated.cmake; the functions of
# CMakeLists.txt (overlap_add_submission) are used.
set(expect_generated ${CMAKE_CURRENT_SOURCE_DIR}/expect_generated.cmake)
set(generated_seeds 50)

function(overlap_generated_test name grader mode)
  if(NOT TARGET ${grader})
    return()  # its exercise is left out by OVERLAP_ONLY
  endif()
  add_test(NAME generated.${name}
           COMMAND ${CMAKE_COMMAND} -DJUDGE=$<TARGET_FILE:overlap-judge>
                   -DWORLD=$<TARGET_PROPERTY:${grader},OVERLAP_WORLD>
                   -DPROGRAM=$<TARGET_FILE:${grader}> -DMODE=${mode} ${ARGN}
                   -P ${expect_generated})
  set_tests_properties(generated.${name} PROPERTIES LABELS generated)
endfunction()

# overlap_generated_rejected(<name> <grader target> <the checks of its named test>): a wrong
# program on the default generated set is rejected with the diagnosis its checks expect (one of
# its violation kinds, or `slow` for a program that is only slow).
function(overlap_generated_rejected name grader)
  set(diagnosis slow)
  set(args "")
  foreach(check IN LISTS ARGN)
    if(check MATCHES "^-DKINDS=(.+)$")
      set(diagnosis ${CMAKE_MATCH_1})
    elseif(check MATCHES "^-DARGS=.*(--time-limit [0-9.]+)")
      set(args "${CMAKE_MATCH_1}")
    endif()
  endforeach()
  overlap_generated_test(${name} ${grader} rejected -DDIAGNOSIS=${diagnosis} "-DARGS=${args}"
    -DWORK=${CMAKE_CURRENT_BINARY_DIR}/generated/${name})
endfunction()

# overlap_generated_tests(<exercise>): after its expected.cmake (generated_paths).
function(overlap_generated_tests exercise)
  set(work ${CMAKE_CURRENT_BINARY_DIR}/generated/${exercise})
  # The reference, pass or better everywhere; what it went through, counted from its reports.
  overlap_generated_test(${exercise}.solution grade-${exercise}-solution pass-everywhere
    -DSEEDS=${generated_seeds} -DWORK=${work}/solution)
  overlap_generated_test(${exercise}.coverage grade-${exercise}-solution coverage
    -DPATHS=${generated_paths} -DWORK=${work}/solution)
  if(TEST generated.${exercise}.solution)
    set_tests_properties(generated.${exercise}.solution PROPERTIES
                         FIXTURES_SETUP generated-${exercise})
    set_tests_properties(generated.${exercise}.coverage PROPERTIES
                         FIXTURES_REQUIRED generated-${exercise})
  endif()
  overlap_generated_test(${exercise}.starter grade-${exercise} slow-everywhere
    -DSEEDS=${generated_seeds} -DWORK=${work}/starter)
  # A generated run replays from its JSON report: the same scenarios, the same report.
  if(TARGET grade-${exercise}-solution)
    set(judge $<TARGET_FILE:overlap-judge> ${exercise}
              --program $<TARGET_FILE:grade-${exercise}-solution>)
    add_test(NAME generated.${exercise}.replay
      COMMAND sh -c "\"$0\" \"$@\" --seed 7 --scenario generated --generated 2 --json '${work}/first.json' >/dev/null && \"$0\" \"$@\" --replay '${work}/first.json' --json '${work}/again.json' >/dev/null && cmp '${work}/first.json' '${work}/again.json'"
              ${judge})
    set_tests_properties(generated.${exercise}.replay PROPERTIES LABELS generated)
  endif()
endfunction()

# overlap_best_known_holds_mutants(<exercise>): the mutants and variants graded correct on their
# named scenarios (overlap_grade_test records them) checked like the reference against the best
# known over the same 200 seeds, in a test of their own (a judge run of 800 scenarios per program
# is minutes on a loaded machine, so ctest can run it beside the others). An incorrect run does
# not count: a variant correct on its named scenarios and wrong on some generated one is checked
# where it is correct.
set(best_known_mutant_seeds 200)
function(overlap_best_known_holds_mutants exercise)
  get_property(graders GLOBAL PROPERTY overlap_correct_mutants)
  set(programs "")
  foreach(grader IN LISTS graders)
    get_target_property(world ${grader} OVERLAP_WORLD)
    if(world STREQUAL exercise)
      list(APPEND programs $<TARGET_FILE:${grader}>)
    endif()
  endforeach()
  if(NOT programs)
    return()
  endif()
  list(REMOVE_DUPLICATES programs)
  add_test(NAME generated.${exercise}.best-known-holds-mutants
           COMMAND ${CMAKE_CURRENT_SOURCE_DIR}/best_known_holds.sh $<TARGET_FILE:overlap-judge>
                   $<TARGET_FILE:overlap-best-known-check> ${exercise} ${best_known_mutant_seeds}
                   ${CMAKE_CURRENT_BINARY_DIR}/best-known-mutants/${exercise} ${programs})
  set_tests_properties(generated.${exercise}.best-known-holds-mutants PROPERTIES
                       LABELS generated TIMEOUT 3600)
endfunction()
