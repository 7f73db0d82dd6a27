// The best schedules the fsdp world can plan offline, for any scenario: the earliest times of a
// schedule family, computed in one pass over its dependencies (no Asio, no simulator), and the
// best over the families. A planned schedule is one the world runs as planned: every figure is a
// makespan a submission can reach.
#pragma once

#include <string>
#include <vector>

#include "scenarios.hpp"

namespace overlap::fsdp {

// On every rank, the gathers run in the order the layers are needed (forwards 0 .. L-1, then
// the backwards of the layers not kept, from the highest down), each as soon as its copy is in,
// the stream is free and a parameter buffer is; copies run as early as the copy engine allows (a
// layer's second copy after its first gather's issue); the layers `kept` marks stay gathered from
// their forward through their backward (the last layer among them, at most param_buffers of
// them); a backward waits for a gradient buffer; each reduce-scatter follows its backward.
// Collectives complete one collective time after the last rank's issue. Returns the makespan,
// in ms.
double prefetching_ms(const Scenario& s, const std::vector<char>& kept);
// The same with the last `kept` layers kept.
double prefetching_ms(const Scenario& s, int kept);

struct Plan {
  double ms = 0;
  std::string note;  // which family reached it, and how
};

// The best of the families above: narrow, over every number of last layers kept (what drawn
// scenarios are accepted on, so that widening the search does not change what is drawn); wide,
// then from the best, one layer kept more, less or instead of another while that helps (keeping
// a large layer spares its second gather).
enum class Breadth { narrow, wide };
Plan best_known(const Scenario& s, Breadth breadth = Breadth::wide);

}  // namespace overlap::fsdp
