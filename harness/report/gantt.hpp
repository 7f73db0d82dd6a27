// A text Gantt chart: one row per device, one column per time slice.
#pragma once

#include <string>
#include <vector>

#include "../verdict/result.hpp"

namespace overlap::report {

struct Gantt {
  double window_ms = 0;           // the chart shows [0, window_ms)
  double column_ms = 0;           // time per column
  std::vector<std::string> rows;  // "stage 0 |FFFF.BB..|"
};

// Charts the start of the run in at most `max_columns` columns of a round size (1, 2 or 5 x 10^k
// ms), none longer than an operation that starts in the window, so that every operation covers at
// least one column: [0, result.chart_window_ms) when that fits, else the first `max_columns`
// columns at the coarsest size that does. A column shows the glyph of the operation covering most
// of it, in upper case when the device is busy all of it and in lower case when only part of it,
// '.' when the device is idle, and '!' where two operations overlap on one device (contention).
// Operations that take no time cover no column and are left out (the trace shows them).
Gantt gantt(const verdict::ScenarioResult& result, int max_columns = 96);

}  // namespace overlap::report
