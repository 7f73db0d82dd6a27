// The sandbox's host: one process a grade, started by the judge inside the sandbox (the
// launcher in `host` mode), that starts every scenario's submission program there with a fork
// and reports how it ended. Entering the namespaces is paid once a grade, not once a scenario,
// and the program's exact wait status reaches the judge whatever the namespaces report.
//
// The judge and the host talk on a socket pair (SOCK_SEQPACKET, a message a datagram): the
// judge sends `start` with the program's descriptors (SCM_RIGHTS) or `kill`; the host answers
// each program's end with its wait status. The host holds nothing of a run once it has started
// it but the count of its threads (thread_watch.hpp), so the judge sees the program's end (its
// pipes close) when it comes. The program cannot reach the host: the filter refuses signals to
// other processes, tracing and opening files for writing.
#pragma once

#include <sys/socket.h>

#include <cstdint>

namespace overlap::sandbox {

// Where the host finds its end of the socket pair.
inline constexpr int kHostSocketFd = 10;

struct HostRequest {
  enum Kind : std::int32_t { start = 1, kill = 2 };
  Kind kind;
  std::int32_t cpu_seconds;  // start: the program's CPU limit
};

// The descriptors `start` carries, in this order, and where the program finds them: its pipes
// from and to the judge (3, 4), the sandbox's report (5), the channel's shared memory (6), the
// submission's object (8), its stdout and stderr (1 and 2, one pipe).
inline constexpr int kProgramFds[] = {3, 4, 5, 6, 8, 1};
inline constexpr int kProgramFdCount = sizeof kProgramFds / sizeof kProgramFds[0];

// The request as a message, with room in `control` for a start's descriptors.
struct RequestMessage {
  alignas(cmsghdr) char control[CMSG_SPACE(sizeof(int) * kProgramFdCount)] = {};
  iovec data;
  msghdr message{};
  explicit RequestMessage(HostRequest& request) : data{&request, sizeof request} {
    message.msg_iov = &data;
    message.msg_iovlen = 1;
    message.msg_control = control;
    message.msg_controllen = sizeof control;
  }
  RequestMessage(const RequestMessage&) = delete;
  RequestMessage& operator=(const RequestMessage&) = delete;
};

// Where the launcher says, with one byte, that it is about to load the submission; it closes the
// descriptor before it does, so that the submission can neither say it nor take it back. Whether
// the program started is the host's to know, never the program's output or exit code.
inline constexpr int kLoadedFd = 7;

struct HostReport {
  std::int32_t status;           // the program's wait status
  std::int32_t loaded;           // 1 when the launcher went on to load the submission
  std::int32_t threads_refused;  // 1 when the host refused a thread past kMaxThreads, and killed it
};

// In the launcher, as the host: serves the judge on kHostSocketFd until it goes away, then
// exits. Returns only in a program it started, with its descriptors in place, its thread watch
// in force, and the CPU seconds it may use.
int serve_as_host();

}  // namespace overlap::sandbox
