#include "program.hpp"

#include <fcntl.h>
#include <fmt/format.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <stdexcept>
#include <system_error>
#include <thread>

#include "../sandbox/empty_root.hpp"
#include "../sandbox/filter.hpp"
#include "../sandbox/refusal.hpp"

namespace overlap::grade {

namespace {

// What one run may send the judge in all: far above any honest run (a call is about 40 bytes).
constexpr std::size_t kMaxRunBytes = std::size_t{512} << 20;

worlds::Link::Status status_of(protocol::Io io) {
  switch (io) {
    case protocol::Io::done:
      return worlds::Link::Status::ok;
    case protocol::Io::timeout:
      return worlds::Link::Status::timeout;
    case protocol::Io::closed:
      break;
  }
  return worlds::Link::Status::closed;
}

void make_pipe(int fds[2]) {
  if (::pipe2(fds, O_CLOEXEC) != 0) throw std::system_error(errno, std::generic_category(), "pipe");
}

}  // namespace

Program::Program(const std::string& launcher, const std::string& submission, double real_seconds,
                 Mode mode)
    : real_seconds_(real_seconds),
      deadline_(mode == Mode::debugged ? protocol::Clock::time_point::max()
                                       : protocol::Clock::now() +
                                             std::chrono::duration_cast<protocol::Clock::duration>(
                                                 std::chrono::duration<double>(real_seconds))),
      alarm_(deadline_) {
  int to[2], from[2], refused[2], kept[2];
  make_pipe(to);
  make_pipe(from);
  make_pipe(refused);
  make_pipe(kept);
  // Past the limit the judge has killed it already; the CPU limit is for a judge that is gone.
  const std::string cpu_seconds = std::to_string(static_cast<long>(real_seconds) + 2);
  const std::string mode_name = mode == Mode::debugged ? "debugged" : "graded";
  const bool namespaces = mode == Mode::graded;
  // Opened by the judge, so the sandbox needs no path to them (nor its user the right to one).
  const int launcher_file = ::open(launcher.c_str(), O_RDONLY | O_CLOEXEC);
  const int submission_file = ::open(submission.c_str(), O_RDONLY | O_CLOEXEC);
  if (launcher_file < 0 || submission_file < 0) {
    throw std::system_error(errno, std::generic_category(),
                            "open " + launcher + " or " + submission);
  }
  sandbox::EmptyRoot root;
  if (namespaces) {
    root.system(false).proc().prepare(
        {"/proc/self/fd/9", "/proc/self/fd/8", mode_name, cpu_seconds}, "");
  }
  pid_ = ::fork();
  if (pid_ < 0) throw std::system_error(errno, std::generic_category(), "fork");
  if (pid_ == 0) {
    // The child: a session and group of its own (a debugger keeps the terminal's), the pipes
    // where the client and the launcher expect them, nothing else of the judge's open (every
    // pipe was made close-on-exec; dup2 clears that on the copies).
    if (mode != Mode::debugged) ::setsid();
    // Out of the way first: a pipe may already sit on 1 to 5, and dup2 onto itself would keep
    // close-on-exec.
    const int in = ::fcntl(to[0], F_DUPFD_CLOEXEC, 10);
    const int out = ::fcntl(from[1], F_DUPFD_CLOEXEC, 10);
    const int report = ::fcntl(refused[1], F_DUPFD_CLOEXEC, 10);
    const int printed = ::fcntl(output_.write_end(), F_DUPFD_CLOEXEC, 10);
    const int shared = ::fcntl(shared_.fd(), F_DUPFD_CLOEXEC, 10);
    const int status = ::fcntl(kept[1], F_DUPFD_CLOEXEC, 10);
    const int object = ::fcntl(submission_file, F_DUPFD_CLOEXEC, 10);
    const int program = ::fcntl(launcher_file, F_DUPFD_CLOEXEC, 10);
    if (in < 0 || out < 0 || report < 0 || printed < 0 || shared < 0 || status < 0 || object < 0 ||
        program < 0 || ::dup2(in, 3) < 0 || ::dup2(out, 4) < 0 ||
        ::dup2(report, sandbox::kRefusalFd) < 0 || ::dup2(shared, 6) < 0 ||
        ::dup2(status, sandbox::kStatusFd) < 0 || ::dup2(object, 8) < 0 || ::dup2(program, 9) < 0) {
      ::_exit(126);
    }
    if (mode == Mode::debugged) {
      const char* argv[] = {"gdb",      "-q", "--args", launcher.c_str(), submission.c_str(),
                            "debugged", "0",  nullptr};
      ::execvp("gdb", const_cast<char* const*>(argv));
      ::_exit(127);
    }
    const int null = ::open("/dev/null", O_RDONLY);
    if (null < 0 || ::dup2(null, 0) < 0 || ::dup2(printed, 1) < 0 || ::dup2(printed, 2) < 0) {
      ::_exit(126);
    }
    const char* env[] = {"PATH=/usr/bin:/bin", "LANG=C.UTF-8", nullptr};
    if (namespaces) root.enter(const_cast<char* const*>(env));
    const char* argv[] = {launcher.c_str(), "/proc/self/fd/8", mode_name.c_str(),
                          cpu_seconds.c_str(), nullptr};
    ::execve(launcher.c_str(), const_cast<char* const*>(argv), const_cast<char* const*>(env));
    ::_exit(127);
  }
  ::close(launcher_file);
  ::close(submission_file);
  // Also here: whichever runs first, the group exists before a kill.
  if (mode != Mode::debugged) ::setpgid(pid_, pid_);
  debugged_ = mode == Mode::debugged;
  output_.start();
  ::close(to[0]);
  ::close(from[1]);
  ::close(refused[1]);
  ::close(kept[1]);
  to_program_ = to[1];
  from_program_ = from[0];
  refusals_ = refused[0];
  statuses_ = kept[0];
  ::fcntl(refusals_, F_SETFL, O_NONBLOCK);  // read once the program is over
  ::fcntl(statuses_, F_SETFL, O_NONBLOCK);
  channel_ = std::make_unique<protocol::Channel>(shared_, protocol::Side::judge, from_program_,
                                                 to_program_, kMaxRunBytes);
}

Program::~Program() {
  if (to_program_ >= 0) ::close(to_program_);
  if (from_program_ >= 0) ::close(from_program_);
  end_program();
  if (refusals_ >= 0) ::close(refusals_);
  if (statuses_ >= 0) ::close(statuses_);
}

void Program::end_program() {
  if (!reaped_) {
    // After a run, a well-behaved client exits at once on `end`: give it a moment, then kill.
    reap(std::min(deadline_, protocol::Clock::now() + std::chrono::milliseconds(200)));
  }
  kill_group();  // whatever the program left behind in its group
}

std::string Program::output() {
  end_program();
  return output_.finish();
}

std::string Program::refusal() const {
  std::int32_t call = -1;
  if (::read(refusals_, &call, sizeof call) != sizeof call) return "";
  return sandbox::describe_refusal(call);
}

void Program::kill_group() {
  if (pid_ > 0) ::kill(debugged_ ? pid_ : -pid_, SIGKILL);
}

int Program::reap(protocol::Clock::time_point deadline) {
  int status = 0;
  for (;;) {
    const pid_t done = ::waitpid(pid_, &status, WNOHANG);
    if (done == pid_ || (done < 0 && errno != EINTR)) break;
    if (protocol::Clock::now() >= deadline) {
      killed_at_deadline_ = true;
      kill_group();
      while (::waitpid(pid_, &status, 0) < 0 && errno == EINTR) {
      }
      break;
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(1));
  }
  reaped_ = true;
  // The keeper wrote before it exited, and the child reaped here ends after it.
  if (int program = 0; ::read(statuses_, &program, sizeof program) == sizeof program) {
    kept_ = true;
    return program;
  }
  return status;
}

worlds::Link::Status Program::send(std::string_view frames) {
  return status_of(channel_->write(frames, deadline_));
}

worlds::Link::Status Program::receive(std::string& body) {
  return status_of(channel_->next(deadline_, body));
}

std::pair<std::string, std::string> Program::ended(Status why) {
  if (why == Status::timeout) {
    kill_group();
    reap(protocol::Clock::time_point::max());
    return {"time-limit",
            fmt::format("no answer after {:g} s of real time: a loop that never waits on a "
                        "simulated operation, one whose calls all fail or end at once, or a wait "
                        "on real time (a sleep, a lock, another thread)? Virtual time only moves "
                        "when every actor waits on the cluster",
                        real_seconds_)};
  }
  // The program closed its pipe: it died, or exited in the middle of the run.
  const int status = reap(deadline_);
  if (!kept_ && !debugged_ && !killed_at_deadline_) {
    // Only the keeper's death or a sandbox that never started the launcher leave no report.
    throw std::runtime_error(
        fmt::format("the submission program ended with no word from its keeper (wait status {}): "
                    "the sandbox did not start it: {}",
                    status, output_.finish()));
  }
  // The sandbox's handler reports on its pipe, then exits 128 + SIGSYS: a report without that
  // exit was written by the submission itself, and says nothing.
  const bool refused_call = WIFEXITED(status) && WEXITSTATUS(status) == 128 + SIGSYS;
  if (std::string refused = refused_call ? refusal() : ""; !refused.empty()) {
    return {"sandbox", std::move(refused)};
  }
  if (killed_at_deadline_) {
    return {"time-limit", fmt::format("the submission closed its connection to the judge and "
                                      "kept running until the limit of {:g} s of real time",
                                      real_seconds_)};
  }
  if (WIFSIGNALED(status) && WTERMSIG(status) == SIGSYS) {
    return {"sandbox",
            "sandbox: the submission made a system call the sandbox refuses, with the "
            "sandbox's report blocked (signal 31, SIGSYS)"};
  }
  if (WIFSIGNALED(status)) {
    const int sig = WTERMSIG(status);
    return {"crash", fmt::format("the submission crashed: signal {} ({})", sig, ::strsignal(sig))};
  }
  const int code = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
  if (code == 127) {
    return {"crash", "the submission program could not be started (its output says why)"};
  }
#ifdef OVERLAP_SANITIZED
  if (code == sandbox::kSanitizerExit) {
    return {"crash", "a sanitizer stopped the submission program (its report is in the output)"};
  }
#endif
  return {"crash", fmt::format("the submission program exited (status {}) before the run was "
                               "over: exit() or quick_exit() in train?",
                               code)};
}

}  // namespace overlap::grade
