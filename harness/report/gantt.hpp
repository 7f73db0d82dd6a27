// A text Gantt chart: one row per device, one column per time slice.
#pragma once

#include <string>
#include <vector>

#include "../result/result.hpp"

namespace overlap::report {

struct Gantt {
  double column_ms = 0;           // time per column
  std::vector<std::string> rows;  // "stage 0 |FFFF.BB..|"
};

// Charts [0, result.chart_window_ms) in at most `max_columns` columns of a round size. A column
// shows the glyph of the operation covering most of it when the device is busy for at least
// half of it, '.' otherwise, and '!' where two operations overlap on one device (contention).
Gantt gantt(const grade::ScenarioResult& result, int max_columns = 96);

}  // namespace overlap::report
