#include "gantt.hpp"

#include <algorithm>
#include <cmath>

namespace overlap::report {

namespace {

double round_column(double window, int max_columns) {
  for (double unit = 1;; unit *= 10) {
    for (double step : {1.0, 2.0, 5.0}) {
      if (window / (step * unit) <= max_columns) return step * unit;
    }
  }
}

}  // namespace

Gantt gantt(const grade::ScenarioResult& r, int max_columns) {
  Gantt chart;
  if (r.chart_window_ms <= 0 || r.devices.empty()) return chart;
  chart.column_ms = round_column(r.chart_window_ms, max_columns);
  const int columns = static_cast<int>(std::ceil(r.chart_window_ms / chart.column_ms));
  std::size_t width = 0;
  for (const auto& d : r.devices) width = std::max(width, d.device.size());

  for (std::size_t d = 0; d < r.devices.size(); ++d) {
    std::string cells(columns, '.');
    std::vector<double> covered(columns, 0), best(columns, 0);
    for (const grade::TimelineEvent& e : r.timeline) {
      if (e.device != static_cast<int>(d)) continue;
      const int first = std::max(0, static_cast<int>(e.start_ms / chart.column_ms));
      const int last = std::min(columns - 1, static_cast<int>(e.end_ms / chart.column_ms));
      for (int c = first; c <= last; ++c) {
        const double lo = std::max(e.start_ms, c * chart.column_ms);
        const double hi = std::min(e.end_ms, (c + 1) * chart.column_ms);
        const double overlap = hi - lo;
        if (overlap <= 0 && !(e.start_ms == e.end_ms && lo == e.start_ms)) continue;
        covered[c] += std::max(0.0, overlap);
        if (overlap >= best[c]) best[c] = overlap, cells[c] = e.glyph;
        if (covered[c] > chart.column_ms + 1e-9) cells[c] = '!';
      }
    }
    std::string name = r.devices[d].device;
    name.resize(width, ' ');
    chart.rows.push_back(name + " |" + cells + "|");
  }
  return chart;
}

}  // namespace overlap::report
