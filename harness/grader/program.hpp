// A submission running as the judge's child, for one scenario: the exercise's launcher
// (sandbox/launcher_main.cpp), which confines the process and loads the submission's shared
// object, started with its pipes on descriptors 3 and 4 and the shared memory of its channel on 6
// (client/connection.hpp), the sandbox's report on 5, stdout and stderr captured, in a session and
// process group of its own, with a scrubbed environment, under a real-time deadline that bounds
// every wait. The judge never links or loads its code.
#pragma once

#include <sys/types.h>

#include <memory>
#include <string>

#include "../protocol/alarm.hpp"
#include "../protocol/channel.hpp"
#include "../worlds/common/link.hpp"
#include "captured_output.hpp"

namespace overlap::grade {

class Program final : public worlds::Link {
 public:
  // Starts `launcher` on `submission`; the run must be over within `real_seconds`. Under a
  // debugger (gdb) it runs with the terminal, its environment and no deadline or limits: a
  // person is stepping through it (the system-call filter still holds).
  enum class Mode { graded, debugged };
  Program(const std::string& launcher, const std::string& submission, double real_seconds,
          Mode mode = Mode::graded);
  ~Program() override;  // kills the program's process group and reaps it
  Program(const Program&) = delete;
  Program& operator=(const Program&) = delete;

  Status send(std::string_view frames) override;
  Status receive(std::string& body) override;
  std::pair<std::string, std::string> ended(Status why) override;

  // After the run: what the program printed (capped, escaped). Ends the program first.
  std::string output();

 private:
  void kill_group();
  int reap(protocol::Clock::time_point deadline);  // the wait status; kills past the deadline
  void end_program();                              // a moment to exit, then the group killed
  std::string refusal() const;  // the sandbox's report of a refused system call, or ""

  double real_seconds_;
  protocol::Clock::time_point deadline_;
  protocol::Alarm alarm_;  // ends the blocking reads and writes at the deadline
  CapturedOutput output_;
  pid_t pid_ = -1;
  bool debugged_ = false;
  bool reaped_ = false;
  bool killed_at_deadline_ = false;
  int to_program_ = -1;
  int from_program_ = -1;
  int refusals_ = -1;
  protocol::SharedRegion shared_;
  std::unique_ptr<protocol::Channel> channel_;
};

}  // namespace overlap::grade
