// The judge's end of the sandbox's host (sandbox/host.hpp): the exercise's launcher started
// once a grade, in the empty root (sandbox/empty_root.hpp) that holds the system's libraries
// and a /proc of its own, the launcher itself coming in as an open descriptor; without the
// namespaces for --no-sandbox. Each scenario's program is started by it and reported on by it.
#pragma once

#include <sys/types.h>

#include <array>
#include <optional>
#include <string>

#include "../protocol/alarm.hpp"
#include "../sandbox/host.hpp"

namespace overlap::judge {

class SandboxHost {
 public:
  // Starts the host. Throws std::runtime_error when it cannot (a grader error).
  SandboxHost(const std::string& launcher, bool namespaces);
  ~SandboxHost();  // the host goes, and with it anything left in its sandbox
  SandboxHost(const SandboxHost&) = delete;
  SandboxHost& operator=(const SandboxHost&) = delete;

  // Starts a program on these descriptors (sandbox::kProgramFds's order; the caller keeps its
  // copies), with a CPU limit. One program at a time: the last one's status read first.
  void start(const std::array<int, sandbox::kProgramFdCount>& fds, int cpu_seconds);
  void kill();  // the running program, if it still runs
  // How a program ended, as the host saw it.
  struct Ended {
    int status = 0;                // its wait status
    bool loaded = false;           // it went on to load the submission (else it never started)
    bool threads_refused = false;  // the host refused a thread past the bound, and killed it
  };
  // The program's end once it has ended, or nothing at `deadline`. Throws std::runtime_error
  // when the host is gone (a grader error: its output says why).
  std::optional<Ended> wait(protocol::Clock::time_point deadline);

 private:
  pid_t pid_ = -1;
  int socket_ = -1;
};

}  // namespace overlap::judge
