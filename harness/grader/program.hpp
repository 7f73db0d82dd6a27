// A submission running as the judge's child, for one scenario: the exercise's launcher
// (sandbox/launcher_main.cpp), which confines the process and loads the submission's shared
// object, started with its pipes on descriptors 3 and 4 and the shared memory of its channel on 6
// (client/connection.hpp), the sandbox's report on 5, its keeper's on 7, stdout and stderr
// captured, in a session and process group of its own, with a scrubbed environment, under a
// real-time deadline that bounds every wait. It runs in an empty root (sandbox/empty_root.hpp)
// that holds the system's libraries and a /proc of its own; the launcher and the shared object
// come in as open descriptors (9 and 8), so nothing of the kit's folders is there. The judge
// never links or loads its code.
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
  // debugger (gdb) it runs with the terminal, its environment and no deadline, limits or
  // namespaces: a person is stepping through their own file (the system-call filter still
  // holds). `graded_without_namespaces` is --no-sandbox: the filter and the limits only.
  enum class Mode { graded, graded_without_namespaces, debugged };
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
  // The program's wait status, as its keeper saw it (or the child's own when it has none);
  // kills past the deadline.
  int reap(protocol::Clock::time_point deadline);
  void end_program();           // a moment to exit, then the group killed
  std::string refusal() const;  // the sandbox's report of a refused system call, or ""

  double real_seconds_;
  protocol::Clock::time_point deadline_;
  protocol::Alarm alarm_;  // ends the blocking reads and writes at the deadline
  CapturedOutput output_;
  pid_t pid_ = -1;
  bool debugged_ = false;
  bool reaped_ = false;
  bool killed_at_deadline_ = false;
  bool kept_ = false;  // the keeper reported the program's status
  int to_program_ = -1;
  int from_program_ = -1;
  int refusals_ = -1;
  int statuses_ = -1;  // the keeper's report
  protocol::SharedRegion shared_;
  std::unique_ptr<protocol::Channel> channel_;
};

}  // namespace overlap::grade
