// Bounds the judge's work on a run by a deadline without a system call per wait or per step:
// from the deadline on, a timer signal interrupts the thread's blocking calls (EINTR), and
// FrameReader/FrameWriter then see the deadline has passed; the signal also sets a flag that the
// judge's loops (the lock-step run, the simulator) read once per iteration.
#pragma once

#include <atomic>
#include <ctime>

#include "pipe.hpp"

namespace overlap::protocol {

class Alarm {
 public:
  // Signals the calling thread at `deadline` and every 10 ms after (a signal that lands just
  // before a call blocks is not lost for good), until destroyed. `Clock::time_point::max()`:
  // never.
  explicit Alarm(Clock::time_point deadline);
  ~Alarm();
  Alarm(const Alarm&) = delete;
  Alarm& operator=(const Alarm&) = delete;

  // Set from the deadline of the live alarm on; false while none is live or before its deadline.
  static const std::atomic<bool>& rung();

 private:
  timer_t timer_{};
  bool armed_ = false;
};

}  // namespace overlap::protocol
