// An exclusive resource (a pipeline stage, a worker, a stream): one operation at a time.
#pragma once

#include <cstddef>
#include <deque>
#include <string>

#include "timeline.hpp"

namespace overlap::sim {

struct Device {
  int id = 0;
  std::string name;  // "stage 2"
  // The operations begun here, oldest first, the front one still running: more than one runs
  // only after a contention violation. One that ends behind the front stays until it reaches
  // the front (Simulator::end), so ending one costs amortised O(1) however many run.
  std::deque<OpId> running;
  std::size_t running_count = 0;  // of those, the ones still running
  Time busy = 0;                  // total time with at least one operation running
  Time busy_since = 0;

  bool idle() const { return running_count == 0; }
};

}  // namespace overlap::sim
