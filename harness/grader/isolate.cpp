#include "isolate.hpp"

#include <fmt/format.h>
#include <poll.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <iostream>

#include "wire.hpp"

namespace overlap::grade {

namespace {

void write_all(int fd, const std::string& data) {
  std::size_t done = 0;
  while (done < data.size()) {
    const ssize_t n = ::write(fd, data.data() + done, data.size() - done);
    if (n <= 0) return;
    done += static_cast<std::size_t>(n);
  }
}

ScenarioResult failed(const worlds::Exercise& exercise, const std::string& scenario,
                      std::string kind, std::string message) {
  ScenarioResult r = exercise.facts(scenario);
  r.violations = {{std::move(kind), std::move(message), 0}};
  r.violations_total = 1;
  return r;
}

[[noreturn]] void child(const worlds::Exercise& exercise, const std::string& scenario, int fd) {
  ScenarioResult result;
  try {
    result = exercise.run(scenario);
  } catch (const std::exception& e) {
    // Thrown out of the event loop itself: from a plain completion handler, say.
    result =
        failed(exercise, scenario, "exception", fmt::format("the submission threw: {}", e.what()));
  }
  write_all(fd, to_wire(result));
  std::cout.flush();
  std::fflush(stdout);
  ::_exit(0);
}

}  // namespace

ScenarioResult run_isolated(const worlds::Exercise& exercise, const std::string& scenario,
                            double real_seconds) {
  // For a debugger: OVERLAP_IN_PROCESS=1 runs the scenario in this process, unguarded.
  if (const char* in_process = std::getenv("OVERLAP_IN_PROCESS");
      in_process && *in_process == '1') {
    return exercise.run(scenario);
  }
  int fds[2];
  if (::pipe(fds) != 0) throw std::runtime_error("pipe() failed");
  std::cout.flush();
  const pid_t pid = ::fork();
  if (pid < 0) throw std::runtime_error("fork() failed");
  if (pid == 0) {
    ::close(fds[0]);
    child(exercise, scenario, fds[1]);
  }
  ::close(fds[1]);

  using clock = std::chrono::steady_clock;
  const auto deadline = clock::now() + std::chrono::duration<double>(real_seconds);
  std::string answer;
  bool timed_out = false;
  char buffer[65536];
  for (;;) {
    const auto left =
        std::chrono::duration_cast<std::chrono::milliseconds>(deadline - clock::now());
    if (left.count() <= 0) {
      timed_out = true;
      break;
    }
    pollfd p{fds[0], POLLIN, 0};
    if (::poll(&p, 1, static_cast<int>(left.count())) == 0) continue;
    const ssize_t n = ::read(fds[0], buffer, sizeof buffer);
    if (n <= 0) break;  // end of file: the child is done (or dead)
    answer.append(buffer, static_cast<std::size_t>(n));
  }
  ::close(fds[0]);
  if (timed_out) ::kill(pid, SIGKILL);
  int status = 0;
  ::waitpid(pid, &status, 0);

  if (timed_out) {
    return failed(exercise, scenario, "time-limit",
                  fmt::format("no result after {:g} s of real time: a loop that never waits on a "
                              "simulated operation? (virtual time only moves when every actor "
                              "waits)",
                              real_seconds));
  }
  if (WIFSIGNALED(status)) {
    const int sig = WTERMSIG(status);
    return failed(exercise, scenario, "crash",
                  fmt::format("the submission crashed: signal {} ({})", sig, ::strsignal(sig)));
  }
  try {
    return from_wire(answer);
  } catch (const std::exception& e) {
    return failed(exercise, scenario, "crash",
                  fmt::format("the scenario ended without a readable result (exit status {}): {}",
                              WIFEXITED(status) ? WEXITSTATUS(status) : -1, e.what()));
  }
}

}  // namespace overlap::grade
