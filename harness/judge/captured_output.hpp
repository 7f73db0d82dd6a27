// What a submission prints on stdout and stderr: drained from a pipe by a thread of the judge's
// (so a program that floods it never blocks on it, and never fills the judge's memory), kept up
// to a cap, and shown in the report with control characters escaped.
#pragma once

#include <atomic>
#include <cstddef>
#include <string>
#include <string_view>
#include <thread>

namespace overlap::judge {

class CapturedOutput {
 public:
  static constexpr std::size_t kKeptBytes = 4096;

  CapturedOutput();  // the pipe
  ~CapturedOutput();
  CapturedOutput(const CapturedOutput&) = delete;
  CapturedOutput& operator=(const CapturedOutput&) = delete;

  // The child's end: its stdout and stderr. The parent closes its copy with start().
  int write_end() const { return write_end_; }
  // In the parent, after the fork: starts draining.
  void start();
  // Once every writer is gone (the process group reaped): the first kKeptBytes, escaped, with a
  // line saying how much more there was. Waits for the drain to end.
  std::string finish();

 private:
  void drain();

  int read_end_ = -1;
  int write_end_ = -1;
  std::string kept_;
  std::size_t dropped_ = 0;
  std::atomic<bool> finishing_{false};
  std::thread drainer_;
};

}  // namespace overlap::judge
