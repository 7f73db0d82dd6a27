// The best schedules the fsdp world can plan offline, for any scenario: the earliest times of a
// schedule family, computed in one pass over its dependencies (no Asio, no simulator), and the
// best over the families. A planned schedule is one the world runs as planned: every figure is a
// makespan a submission can reach.
#pragma once

#include <string>

#include "scenarios.hpp"

namespace overlap::fsdp {

// On every rank, the gathers run in the order the layers are needed (forwards 0 .. L-1, then
// the backwards of the layers not kept), each as soon as its copy is in, the stream is free
// and a parameter buffer is; copies run as early as the copy engine allows (a layer's second
// copy after its first gather's issue); the last `kept` layers stay gathered from their forward
// through their backward (kept <= param_buffers); a backward waits for a gradient buffer; each
// reduce-scatter follows its backward. Collectives complete one collective time after the last
// rank's issue. Returns the makespan, in ms.
double prefetching_ms(const Scenario& s, int kept);

struct Plan {
  double ms = 0;
  std::string note;  // which family reached it, and how
};

// The best of the families above over every number of kept layers.
Plan best_known(const Scenario& s);

}  // namespace overlap::fsdp
