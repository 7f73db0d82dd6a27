// Bounds the judge's blocking reads and writes by a deadline without a system call per wait: from
// the deadline on, a timer signal interrupts the thread's blocking calls (EINTR, the handler
// does nothing), and FrameReader/FrameWriter then see the deadline has passed.
#pragma once

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

 private:
  timer_t timer_{};
  bool armed_ = false;
};

}  // namespace overlap::protocol
