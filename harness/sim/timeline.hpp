// The record of every operation: what ran where, when, and how it ended.
#pragma once

#include <string>
#include <vector>

#include "time.hpp"

namespace overlap::sim {

using OpId = std::size_t;  // index into Timeline::ops

// What an operation is, as the reports name it: kind "forward", detail "step 0, mb 3",
// glyph 'F' for the text Gantt chart.
struct OpInfo {
  std::string kind;
  std::string detail;
  char glyph = '#';
};

enum class OpStatus { running, done, cancelled, failed };

struct OpRecord {
  int device = 0;
  OpInfo info;
  Time start = 0;
  Time end = 0;  // the planned end while running
  OpStatus status = OpStatus::running;

  std::string describe() const;  // "forward(step 0, mb 3)"
  // Whether it was still running after instant t (or never ended).
  bool runs_past(Time t) const { return status == OpStatus::running || end > t; }
  std::string until() const;  // "until 40 ms", or "and never ended"
};

struct Timeline {
  std::vector<OpRecord> ops;
};

}  // namespace overlap::sim
