# --- one report on every run, whatever the submission's own threads do ---------------------------
# Each program is graded five times: the first four unpinned with a busy loop on the last CPU, the
# fifth with the judge and the program on one CPU; every report byte-identical to the first.

# A thread that sleeps 3 ms, then calls the cluster: the misuse lands at the first instant, which
# waits for it. With the C library's single-thread flag set by the submission, the same: the
# client counts threads from the kernel, not from memory the submission writes.
set(calls_from_a_thread
  "  // A thread of its own calls the cluster 3 ms in: refused, a misuse.\n  std::thread([&pipe] {\n    std::this_thread::sleep_for(std::chrono::milliseconds(3))<semicolon>\n    try {\n      pipe.input(0, 0)<semicolon>\n    } catch (const boost::system::system_error&) {\n    }\n  }).detach()<semicolon>\n")
foreach(flag "" "  __libc_single_threaded = 1<semicolon>  // a lie: the client asks the kernel\n")
  set(name sleeps_then_calls)
  set(headers "#include <chrono>\n#include <thread>\n#include <vector>")
  if(flag)
    set(name sleeps_then_calls_claiming_one_thread)
    set(headers "#include <sys/single_threaded.h>\n\n${headers}")
  endif()
  overlap_variant(pipeline ${name} EXIT 1 LABEL adversarial
    REPLACE "#include <vector>" "${headers}"
      "  const int p = pipe.num_stages()<semicolon>"
      "${calls_from_a_thread}${flag}  const int p = pipe.num_stages()<semicolon>"
    CHECKS -DVERDICT=fail -DKINDS=misuse "-DARGS=--scenario default" -DRUNS=5
    "-DOUTPUT_MATCHES=\\[misuse\\] at 0 ms: Pipeline::input was called from a thread other than")
endforeach()

# A progress sampler on each reference: a SIGALRM handler every 100 us of real time reads only
# the exercise's free queries (the param-server client once swapped the buffer they read, and the
# handler read freed memory). The reference's tiers and makespans, on every run.
# overlap_signal_sampler(<world> <train's parameter> <query>)
function(overlap_signal_sampler world parameter query)
  string(REGEX REPLACE "^.* ([a-z]+)$" "\\1" name "${parameter}")
  string(REGEX REPLACE "& [a-z]+$" "" type "${parameter}")
  overlap_variant(${world} signal_sampler EXIT 0 LABEL adversarial GENERATED
    REPLACE "#include <vector>" "#include <csignal>\n#include <sys/time.h>\n#include <vector>"
      "awaitable<void> train(${parameter}) {"
      "namespace sampler {\n${type}* sampled = nullptr<semicolon>\nvolatile long seen = 0<semicolon>\nvoid sample(int) {\n  if (!sampled) return<semicolon>\n  ${type}& ${name} = *sampled<semicolon>\n  seen = seen + (${query})<semicolon>\n}\n}  // namespace sampler\n\nawaitable<void> train_sampled(${parameter})<semicolon>\n\nawaitable<void> train(${parameter}) {\n  sampler::sampled = &${name}<semicolon>\n  struct sigaction action {}<semicolon>\n  action.sa_handler = sampler::sample<semicolon>\n  action.sa_flags = SA_RESTART<semicolon>\n  sigaction(SIGALRM, &action, nullptr)<semicolon>\n  itimerval every{{0, 100}, {0, 100}}<semicolon>\n  setitimer(ITIMER_REAL, &every, nullptr)<semicolon>\n  co_await train_sampled(${name})<semicolon>\n  itimerval off{}<semicolon>\n  setitimer(ITIMER_REAL, &off, nullptr)<semicolon>\n}\n\nawaitable<void> train_sampled(${parameter}) {"
    CHECKS -DRUNS=5 -DVERDICT=optimal "-DTIERS=${solution_tiers_${world}}" -DCORRECT=ON
           -DKINDS= "-DMAKESPANS=${solution_pins_${world}}")
endfunction()
overlap_signal_sampler(pipeline "pp::Pipeline& pipe" "pipe.num_stages() + pipe.micro_batches()")
overlap_signal_sampler(grad-accum "ga::Trainer& t" "t.step()")
overlap_signal_sampler(param-server "ps::Cluster& cluster"
  "cluster.server().version() + cluster.worker(0).failed() + cluster.worker(cluster.num_workers() - 1).failed()")
overlap_signal_sampler(fsdp "fsdp::Rank& rank" "rank.num_layers() + rank.param_buffers()")

# Each reference with every completion followed by a hop to other threads and back (the calls all
# on train's thread): through a pool of four threads of its own, and through the system
# executor's threads. One piece of work a handler, so one thread posts back at a time: the
# reference's tier and makespan, on every run, in a scenario where the order of calls in an
# instant counts (a run waits for those threads after every handler: one scenario each).
# overlap_hop_variant(<world> <scenario> <name> <executor expression> [<definitions>])
function(overlap_hop_variant world scenario name executor definitions)
  string(REGEX MATCH "${scenario}=[^,]*" pin "${solution_pins_${world}}")
  overlap_variant(${world} ${name} EXIT 0 LABEL adversarial
    REPLACE "use_awaitable)<semicolon>" "use_awaitable)<semicolon> co_await hop()<semicolon>"
      "using asio::use_awaitable<semicolon>"
      "using asio::use_awaitable<semicolon>\n\n${definitions}// To other threads and back to train's.\nawaitable<void> hop() {\n  co_await asio::post(${executor}, use_awaitable)<semicolon>\n}"
    CHECKS -DRUNS=5 -DVERDICT=optimal -DCORRECT=ON -DKINDS= "-DARGS=--scenario ${scenario}"
           "-DMAKESPANS=${pin}")
endfunction()
foreach(world IN LISTS OVERLAP_EXERCISES)
  set(scenario default)
  if(world STREQUAL "param-server")
    set(scenario worker-failure)  # a failed worker's gradient is retried: more to order
  endif()
  overlap_hop_variant(${world} ${scenario} hops_through_a_thread_pool "pool()"
    "asio::thread_pool& pool() {\n  static asio::thread_pool threads(4)<semicolon>\n  return threads<semicolon>\n}\n\n")
  overlap_hop_variant(${world} ${scenario} hops_through_the_system_executor
    "asio::system_executor()" "")
endforeach()

# Two threads of its own that post to train's context at once: their handlers' order would be
# real time's, so the run is a misuse, named, at its instant, on every run.
overlap_variant(pipeline posts_from_two_threads EXIT 1 LABEL adversarial
  REPLACE "#include <vector>" "#include <latch>\n#include <memory>\n#include <thread>\n#include <vector>"
    "  auto executor = co_await asio::this_coro::executor<semicolon>"
    "  auto executor = co_await asio::this_coro::executor<semicolon>\n  // Two threads, released together, each posting a handler to train's context.\n  auto both = std::make_shared<std::latch>(2)<semicolon>\n  for (int i = 0<semicolon> i < 2<semicolon> ++i) {\n    std::thread([executor, both] {\n      both->arrive_and_wait()<semicolon>\n      asio::post(executor, [] {})<semicolon>\n    }).detach()<semicolon>\n  }"
  CHECKS -DVERDICT=fail -DKINDS=misuse "-DARGS=--scenario default" -DRUNS=5
  "-DOUTPUT_MATCHES=\\[misuse\\] at 0 ms: two or more threads of the submission's own posted to train's context at once")

# A thread asleep in poll() on a copy of the judge's descriptor: its frames would wake it in
# real time. A named misuse, on every run.
overlap_adversarial(pipeline polls_the_judge 1 ${rejected} -DKINDS=misuse
  "-DARGS=--scenario two-stage" -DRUNS=5
  "-DOUTPUT_MATCHES=thread 1 of the submission waits on the judge's descriptor")
