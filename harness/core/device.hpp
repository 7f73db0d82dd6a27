// An exclusive resource (a pipeline stage, a worker, a stream): one operation at a time.
#pragma once

#include <string>
#include <vector>

#include "timeline.hpp"

namespace overlap::sim {

struct Device {
  int id = 0;
  std::string name;           // "stage 2"
  std::vector<OpId> running;  // more than one only after a contention violation
  Time busy = 0;              // total time with at least one operation running
  Time busy_since = 0;

  bool idle() const { return running.empty(); }
};

}  // namespace overlap::sim
