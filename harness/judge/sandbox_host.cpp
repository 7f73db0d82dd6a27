#include "sandbox_host.hpp"

#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <stdexcept>
#include <system_error>
#include <thread>

#include "../sandbox/empty_root.hpp"

namespace overlap::judge {

namespace {

[[noreturn]] void fail(const char* what) {
  throw std::system_error(errno, std::generic_category(), what);
}

}  // namespace

SandboxHost::SandboxHost(const std::string& launcher, bool namespaces) {
  int pair[2];
  if (::socketpair(AF_UNIX, SOCK_SEQPACKET | SOCK_CLOEXEC, 0, pair) != 0) fail("socketpair");
  // Opened by the judge, so the sandbox needs no path to it (nor its user the right to one).
  const int file = ::open(launcher.c_str(), O_RDONLY | O_CLOEXEC);
  if (file < 0) fail("open the launcher");
  sandbox::EmptyRoot root;
  if (namespaces) root.system(false).proc().prepare({"/proc/self/fd/9", "host"}, "");
  pid_ = ::fork();
  if (pid_ < 0) fail("fork");
  if (pid_ == 0) {
    // A session of its own; the socket and the launcher where the host expects them. Its stderr
    // stays the judge's: a sandbox that cannot start says why there.
    ::setsid();
    const int socket = ::fcntl(pair[1], F_DUPFD_CLOEXEC, 20);
    const int program = ::fcntl(file, F_DUPFD_CLOEXEC, 20);
    const int in = ::open("/dev/null", O_RDONLY | O_CLOEXEC);
    const int out = ::open("/dev/null", O_WRONLY | O_CLOEXEC);
    if (socket < 0 || program < 0 || in < 0 || out < 0 ||
        ::dup2(socket, sandbox::kHostSocketFd) < 0 || ::dup2(program, 9) < 0 || ::dup2(in, 0) < 0 ||
        ::dup2(out, 1) < 0) {
      ::_exit(126);
    }
    // Nothing else the judge was handed (a shell's or a test runner's descriptors) goes in.
    ::close_range(3, 8, 0);
    ::close_range(sandbox::kHostSocketFd + 1, ~0U, 0);
    const char* env[] = {"PATH=/usr/bin:/bin", "LANG=C.UTF-8", nullptr};
    if (namespaces) root.enter(const_cast<char* const*>(env));
    const char* argv[] = {launcher.c_str(), "host", nullptr};
    ::execve(launcher.c_str(), const_cast<char* const*>(argv), const_cast<char* const*>(env));
    ::_exit(127);
  }
  ::setpgid(pid_, pid_);  // also here: whichever runs first, the group exists before a kill
  ::close(pair[1]);
  ::close(file);
  socket_ = pair[0];
}

SandboxHost::~SandboxHost() {
  ::close(socket_);  // the host kills a program still running, then exits
  const auto until = std::chrono::steady_clock::now() + std::chrono::milliseconds(200);
  int status = 0;
  while (::waitpid(pid_, &status, WNOHANG) == 0) {
    if (std::chrono::steady_clock::now() >= until) {
      ::kill(-pid_, SIGKILL);
      while (::waitpid(pid_, &status, 0) < 0 && errno == EINTR) {
      }
      break;
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(1));
  }
}

void SandboxHost::start(const std::array<int, sandbox::kProgramFdCount>& fds, int cpu_seconds) {
  sandbox::HostRequest request{sandbox::HostRequest::start, cpu_seconds};
  sandbox::RequestMessage m(request);
  cmsghdr* c = CMSG_FIRSTHDR(&m.message);
  c->cmsg_level = SOL_SOCKET;
  c->cmsg_type = SCM_RIGHTS;
  c->cmsg_len = CMSG_LEN(sizeof fds);
  std::memcpy(CMSG_DATA(c), fds.data(), sizeof fds);
  while (::sendmsg(socket_, &m.message, MSG_NOSIGNAL) < 0) {
    if (errno != EINTR) fail("the sandbox's host is gone (its output says why); start");
  }
}

void SandboxHost::kill() {
  const sandbox::HostRequest request{sandbox::HostRequest::kill, 0};
  while (::send(socket_, &request, sizeof request, MSG_NOSIGNAL) < 0 && errno == EINTR) {
  }
}

std::optional<SandboxHost::Ended> SandboxHost::wait(protocol::Clock::time_point deadline) {
  for (;;) {
    const auto left =
        std::chrono::ceil<std::chrono::milliseconds>(deadline - protocol::Clock::now());
    if (left.count() <= 0 && deadline != protocol::Clock::time_point::max()) return std::nullopt;
    pollfd ready{socket_, POLLIN, 0};
    const int timeout = deadline == protocol::Clock::time_point::max()
                            ? -1
                            : static_cast<int>(std::min<long long>(left.count(), 1000));
    const int n = ::poll(&ready, 1, timeout);
    if (n < 0 && errno != EINTR) fail("poll the sandbox's host");
    if (n <= 0) continue;
    sandbox::HostReport report{};
    const ssize_t got = ::recv(socket_, &report, sizeof report, 0);
    if (got == sizeof report) {
      return Ended{report.status, report.loaded == 1, report.threads_refused == 1};
    }
    if (got < 0 && errno == EINTR) continue;
    throw std::runtime_error("the sandbox's host is gone (its output says why)");
  }
}

}  // namespace overlap::judge
