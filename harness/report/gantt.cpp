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
  if (r.chart_window_ms <= 0 || r.utilisation.empty()) return chart;
  chart.column_ms = round_column(r.chart_window_ms, max_columns);
  const int columns = static_cast<int>(std::ceil(r.chart_window_ms / chart.column_ms));
  std::size_t width = 0;
  for (const auto& d : r.utilisation) width = std::max(width, d.device.size());

  for (std::size_t d = 0; d < r.utilisation.size(); ++d) {
    std::string cells(columns, '.');
    std::vector<double> covered(columns, 0), best(columns, 0);
    std::vector<char> glyph(columns, '.');
    for (const grade::TimelineEvent& e : r.timeline) {
      if (e.device != static_cast<int>(d)) continue;
      const int first = std::max(0, static_cast<int>(e.start_ms / chart.column_ms));
      const int last = std::min(columns - 1, static_cast<int>(e.end_ms / chart.column_ms));
      for (int c = first; c <= last; ++c) {
        const double overlap = std::min(e.end_ms, (c + 1) * chart.column_ms) -
                               std::max(e.start_ms, c * chart.column_ms);
        if (overlap <= 0) continue;
        covered[c] += overlap;
        if (overlap > best[c]) best[c] = overlap, glyph[c] = e.glyph;
      }
    }
    for (int c = 0; c < columns; ++c) {
      if (covered[c] > chart.column_ms + 1e-9) {
        cells[c] = '!';  // two operations at once on one device
      } else if (covered[c] >= chart.column_ms / 2) {
        cells[c] = glyph[c];
      }
    }
    std::string name = r.utilisation[d].device;
    name.resize(width, ' ');
    chart.rows.push_back(name + " |" + cells + "|");
  }
  return chart;
}

}  // namespace overlap::report
