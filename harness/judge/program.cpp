#include "program.hpp"

#include <fcntl.h>
#include <fmt/format.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <optional>
#include <stdexcept>
#include <system_error>
#include <thread>

#include "../sandbox/filter.hpp"
#include "../sandbox/refusal.hpp"

namespace overlap::judge {

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

Program::Program(double real_seconds, protocol::Clock::time_point deadline)
    : real_seconds_(real_seconds), deadline_(deadline), alarm_(deadline_) {}

Program::Program(SandboxHost& host, const std::string& submission, double real_seconds)
    : Program(real_seconds,
              protocol::Clock::now() + std::chrono::duration_cast<protocol::Clock::duration>(
                                           std::chrono::duration<double>(real_seconds))) {
  int to[2], from[2], refused[2];
  make_pipe(to);
  make_pipe(from);
  make_pipe(refused);
  // Opened by the judge, so the sandbox needs no path to it (nor its user the right to one).
  const int object = ::open(submission.c_str(), O_RDONLY | O_CLOEXEC);
  if (object < 0) throw std::system_error(errno, std::generic_category(), "open " + submission);
  // Past the limit the judge has ended it already; the CPU limit is for a judge that is gone.
  host.start({to[0], from[1], refused[1], shared_.fd(), object, output_.write_end()},
             static_cast<int>(real_seconds) + 2);
  host_ = &host;
  ::close(object);
  ::close(refused[1]);
  refusals_ = refused[0];
  connect(to, from);
}

Program::Program(const std::string& launcher, const std::string& submission)
    : Program(0, protocol::Clock::time_point::max()) {
  int to[2], from[2], refused[2];
  make_pipe(to);
  make_pipe(from);
  make_pipe(refused);
  debugger_ = ::fork();
  if (debugger_ < 0) throw std::system_error(errno, std::generic_category(), "fork");
  if (debugger_ == 0) {
    // With the terminal: the pipes where the client and the launcher expect them (out of the
    // way first: a pipe may already sit on 3 to 6, and dup2 onto itself would keep
    // close-on-exec).
    const int in = ::fcntl(to[0], F_DUPFD_CLOEXEC, 10);
    const int out = ::fcntl(from[1], F_DUPFD_CLOEXEC, 10);
    const int report = ::fcntl(refused[1], F_DUPFD_CLOEXEC, 10);
    const int shared = ::fcntl(shared_.fd(), F_DUPFD_CLOEXEC, 10);
    if (in < 0 || out < 0 || report < 0 || shared < 0 || ::dup2(in, 3) < 0 || ::dup2(out, 4) < 0 ||
        ::dup2(report, sandbox::kRefusalFd) < 0 || ::dup2(shared, 6) < 0) {
      ::_exit(126);
    }
    const char* argv[] = {"gdb", "-q", "--args", launcher.c_str(), submission.c_str(), nullptr};
    ::execvp("gdb", const_cast<char* const*>(argv));
    ::_exit(127);
  }
  ::close(refused[1]);
  refusals_ = refused[0];
  connect(to, from);
}

void Program::connect(int to[2], int from[2]) {
  output_.start();
  ::close(to[0]);
  ::close(from[1]);
  to_program_ = to[1];
  from_program_ = from[0];
  ::fcntl(refusals_, F_SETFL, O_NONBLOCK);  // read once the program is over
  channel_ = std::make_unique<protocol::Channel>(shared_, protocol::Side::judge, from_program_,
                                                 to_program_, kMaxRunBytes);
}

Program::~Program() {
  if (to_program_ >= 0) ::close(to_program_);
  if (from_program_ >= 0) ::close(from_program_);
  try {
    end_program();
  } catch (const std::exception&) {
    // The host is gone: the grade ends with the error that found it first.
  }
  if (refusals_ >= 0) ::close(refusals_);
}

void Program::end_program() {
  if (!reaped_) {
    // After a run, a well-behaved client exits at once on `end`: give it a moment, then kill.
    reap(std::min(deadline_, protocol::Clock::now() + std::chrono::milliseconds(200)));
  }
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

void Program::kill_program() {
  if (host_) host_->kill();
  if (debugger_ > 0) ::kill(debugger_, SIGKILL);
}

int Program::reap(protocol::Clock::time_point deadline) {
  reaped_ = true;
  if (host_) {
    std::optional<SandboxHost::Ended> ended = host_->wait(deadline);
    if (!ended) {
      killed_at_deadline_ = true;
      host_->kill();
      ended = host_->wait(protocol::Clock::now() + std::chrono::seconds(5));
      if (!ended) throw std::runtime_error("the sandbox's host did not end the program");
    }
    started_ = ended->loaded;
    threads_refused_ = ended->threads_refused;
    return ended->status;
  }
  int status = 0;
  for (;;) {
    const pid_t done = ::waitpid(debugger_, &status, WNOHANG);
    if (done == debugger_ || (done < 0 && errno != EINTR)) break;
    if (protocol::Clock::now() >= deadline) {
      killed_at_deadline_ = true;
      kill_program();
      while (::waitpid(debugger_, &status, 0) < 0 && errno == EINTR) {
      }
      break;
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(1));
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
  const bool timed_out = why == Status::timeout;
  if (timed_out) kill_program();
  // The program closed its pipe (it died, or exited in the middle of the run), or ran out of time.
  const int status = reap(timed_out ? protocol::Clock::time_point::max() : deadline_);
  // The host killed it for a thread past the bound: that is why it ended, whatever the program
  // did with the error or its end would suggest.
  if (threads_refused_) {
    return {"sandbox", sandbox::describe_refusal(sandbox::kTooManyThreads)};
  }
  if (timed_out) {
    return {"time-limit",
            fmt::format("no answer after {:g} s of real time: a loop that never waits on a "
                        "simulated operation, one whose calls all fail or end at once, or a wait "
                        "on real time (a sleep, a lock, another thread)? Virtual time only moves "
                        "when every actor waits on the cluster",
                        real_seconds_)};
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
  if (started_ ? !*started_ : code == 127) {
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

}  // namespace overlap::judge
