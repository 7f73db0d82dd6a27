#include "host.hpp"

#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <sys/socket.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <cstdlib>
#include <cstring>

#include "thread_watch.hpp"

namespace overlap::sandbox {

namespace {

// A request, with the descriptors of a `start` (close-on-exec); 0 when the judge is gone.
ssize_t receive(HostRequest& request, int (&fds)[kProgramFdCount], int& received) {
  RequestMessage m(request);
  ssize_t n;
  while ((n = ::recvmsg(kHostSocketFd, &m.message, MSG_CMSG_CLOEXEC)) < 0 && errno == EINTR) {
  }
  received = 0;
  for (cmsghdr* c = CMSG_FIRSTHDR(&m.message); c; c = CMSG_NXTHDR(&m.message, c)) {
    if (c->cmsg_level == SOL_SOCKET && c->cmsg_type == SCM_RIGHTS) {
      received = static_cast<int>((c->cmsg_len - CMSG_LEN(0)) / sizeof(int));
      std::memcpy(fds, CMSG_DATA(c), sizeof(int) * static_cast<std::size_t>(received));
    }
  }
  return n;
}

void close_all(const int* fds, int count) {
  for (int i = 0; i < count; ++i) ::close(fds[i]);
}

// In the program: its descriptors where it expects them, `loaded` (its end of the pipe that
// says it loads the submission) and `watch` (its end of the socket its thread watch goes to the
// host on), nothing else of the host's.
void place(const int (&fds)[kProgramFdCount], int loaded, int watch) {
  int moved[kProgramFdCount];
  // Out of the way of the numbers they go to.
  loaded = ::fcntl(loaded, F_DUPFD_CLOEXEC, 20);
  watch = ::fcntl(watch, F_DUPFD_CLOEXEC, 20);
  if (loaded < 0 || watch < 0) std::_Exit(127);
  for (int i = 0; i < kProgramFdCount; ++i) {
    moved[i] = ::fcntl(fds[i], F_DUPFD_CLOEXEC, 20);
    if (moved[i] < 0) std::_Exit(127);
  }
  for (int i = 0; i < kProgramFdCount; ++i) {
    if (::dup2(moved[i], kProgramFds[i]) < 0) std::_Exit(127);
  }
  if (::dup2(1, 2) < 0 || ::dup2(loaded, kLoadedFd) < 0 || ::dup2(watch, kThreadWatchFd) < 0) {
    std::_Exit(127);
  }
  ::close_range(kThreadWatchFd + 1, ~0U, 0);
}

void report(int status, bool loaded, bool threads_refused = false) {
  const HostReport r{status, loaded ? 1 : 0, threads_refused ? 1 : 0};
  while (::send(kHostSocketFd, &r, sizeof r, MSG_NOSIGNAL) < 0 && errno == EINTR) {
  }
}

// Whether the launcher said, on `loaded`, that it went on to load the submission: read once the
// program is over, when no one can write there any more.
bool went_on_to_load(int loaded) {
  char said = 0;
  ssize_t n;
  while ((n = ::read(loaded, &said, 1)) < 0 && errno == EINTR) {
  }
  ::close(loaded);
  return n == 1;
}

// Waits for `program` to end, answering its thread watch (on `threads`, the socket its listener
// comes on), killing it when the judge asks or goes away; reports its status, whether it loaded
// the submission and whether a thread was refused.
void watch(pid_t program, int loaded, int threads) {
  const int ended = static_cast<int>(::syscall(SYS_pidfd_open, program, 0));
  ThreadWatch count(program, threads);
  bool judge_gone = false;
  for (;;) {
    pollfd waits[] = {{ended, POLLIN, 0}, count.waiting(), {kHostSocketFd, POLLIN, 0}};
    const int ready = ::poll(waits, judge_gone ? 2 : 3, -1);
    if (ready < 0 && errno != EINTR) break;
    if (waits[0].revents) break;
    if (waits[1].revents) count.handle(waits[1].revents);
    if (!judge_gone && waits[2].revents) {
      HostRequest request{};
      int fds[kProgramFdCount];
      int received = 0;
      const ssize_t n = receive(request, fds, received);
      close_all(fds, received);
      if (n <= 0) judge_gone = true;
      if (n <= 0 || request.kind == HostRequest::kill) ::kill(program, SIGKILL);
    }
  }
  ::close(ended);
  int status = 0;
  while (::waitpid(program, &status, 0) < 0 && errno == EINTR) {
  }
  if (judge_gone) std::_Exit(0);
  report(status, went_on_to_load(loaded), count.refused());
}

}  // namespace

int serve_as_host() {
  for (;;) {
    HostRequest request{};
    int fds[kProgramFdCount];
    int received = 0;
    const ssize_t n = receive(request, fds, received);
    if (n <= 0) std::_Exit(0);  // the judge is done (or gone)
    if (request.kind != HostRequest::start || received != kProgramFdCount) {
      close_all(fds, received);
      continue;  // a kill for a program already over
    }
    int loaded[2];
    int threads[2];
    if (::pipe2(loaded, O_CLOEXEC | O_NONBLOCK) != 0) {
      close_all(fds, received);
      report(127 << 8, false);  // as a program that could not be started
      continue;
    }
    if (::socketpair(AF_UNIX, SOCK_SEQPACKET | SOCK_CLOEXEC, 0, threads) != 0) {
      close_all(fds, received);
      close_all(loaded, 2);
      report(127 << 8, false);
      continue;
    }
    const pid_t program = ::fork();
    if (program == 0) {
      // The thread watch before anything of the program's: the launcher's own code included.
      place(fds, loaded[1], threads[1]);
      start_thread_watch();
      return request.cpu_seconds;
    }
    close_all(fds, received);
    ::close(loaded[1]);
    ::close(threads[1]);
    if (program < 0) {
      ::close(loaded[0]);
      ::close(threads[0]);
      report(127 << 8, false);
      continue;
    }
    watch(program, loaded[0], threads[0]);
  }
}

}  // namespace overlap::sandbox
