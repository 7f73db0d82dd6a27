// A submission program running as the judge's child, for one scenario: started with its two
// pipes on descriptors 3 and 4 (client/connection.hpp), in a process group of its own, under a
// real-time deadline that bounds every wait. The judge never links or loads its code.
#pragma once

#include <sys/types.h>

#include <memory>
#include <string>

#include "../protocol/alarm.hpp"
#include "../protocol/pipe.hpp"
#include "../worlds/common/link.hpp"

namespace overlap::grade {

class Program final : public worlds::Link {
 public:
  // Starts `path`; the run must be over within `real_seconds`. Under a debugger (gdb) it runs
  // with the terminal as its input and no deadline: a person is stepping through it.
  enum class Mode { graded, debugged };
  Program(const std::string& path, double real_seconds, Mode mode = Mode::graded);
  ~Program() override;  // kills the program's process group and reaps it
  Program(const Program&) = delete;
  Program& operator=(const Program&) = delete;

  Status send(std::string_view frames) override;
  Status receive(std::string& body) override;
  std::pair<std::string, std::string> ended(Status why) override;

 private:
  void kill_group();
  int reap(protocol::Clock::time_point deadline);  // the wait status; kills past the deadline

  double real_seconds_;
  protocol::Clock::time_point deadline_;
  protocol::Alarm alarm_;  // ends the blocking reads and writes at the deadline
  pid_t pid_ = -1;
  bool debugged_ = false;
  bool reaped_ = false;
  int to_program_ = -1;
  int from_program_ = -1;
  std::unique_ptr<protocol::FrameReader> reader_;
  std::unique_ptr<protocol::FrameWriter> writer_;
};

}  // namespace overlap::grade
