// A submission running for one scenario: a program of its own, started by the grade's sandbox
// host (sandbox_host.hpp) inside the sandbox, which confines the process and loads the
// submission's shared object (sandbox/launcher_main.cpp). It gets its pipes on descriptors 3 and
// 4 and the shared memory of its channel on 6 (client/connection.hpp), the sandbox's report on
// 5, the object on 8, stdout and stderr captured, a scrubbed environment, and a real-time
// deadline that bounds every wait. The judge never links or loads its code.
#pragma once

#include <sys/types.h>

#include <memory>
#include <string>

#include "../protocol/alarm.hpp"
#include "../protocol/channel.hpp"
#include "../worlds/common/link.hpp"
#include "captured_output.hpp"
#include "sandbox_host.hpp"

namespace overlap::judge {

class Program final : public worlds::Link {
 public:
  // Starts `submission` through `host`; the run must be over within `real_seconds`.
  Program(SandboxHost& host, const std::string& submission, double real_seconds);
  // Starts `launcher` on `submission` under a debugger (gdb), with the terminal, its
  // environment and no deadline, limits or namespaces: a person is stepping through their own
  // file (the system-call filter still holds).
  Program(const std::string& launcher, const std::string& submission);
  ~Program() override;  // kills the program's process group and reaps it
  Program(const Program&) = delete;
  Program& operator=(const Program&) = delete;

  Status send(std::string_view frames) override;
  Status receive(std::string& body) override;
  std::pair<std::string, std::string> ended(Status why) override;

  // After the run: what the program printed (capped, escaped). Ends the program first.
  std::string output();

 private:
  Program(double real_seconds, protocol::Clock::time_point deadline);
  void connect(int to[2], int from[2]);  // the channel, once the program has its ends
  void kill_program();
  // The program's wait status (as the host saw it, or the debugger's own); kills past the
  // deadline. Sets started_ and threads_refused_ from what the host saw.
  int reap(protocol::Clock::time_point deadline);
  void end_program();           // a moment to exit, then the group killed
  std::string refusal() const;  // the sandbox's report of a refused system call, or ""

  double real_seconds_;
  protocol::Clock::time_point deadline_;
  protocol::Alarm alarm_;  // ends the blocking reads and writes at the deadline
  CapturedOutput output_;
  SandboxHost* host_ = nullptr;  // a graded run's
  pid_t debugger_ = -1;          // a debugged run's
  bool reaped_ = false;
  bool killed_at_deadline_ = false;
  // Whether the submission was loaded: the host's word on a graded run; a debugged run has none
  // (its exit 127 is the launcher's, as the debugger starts it).
  std::optional<bool> started_;
  bool threads_refused_ = false;  // the host refused a thread past the bound (graded runs only)
  int to_program_ = -1;
  int from_program_ = -1;
  int refusals_ = -1;
  protocol::SharedRegion shared_;
  std::unique_ptr<protocol::Channel> channel_;
};

}  // namespace overlap::judge
