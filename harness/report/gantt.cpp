#include "gantt.hpp"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <limits>

namespace overlap::report {

namespace {

// Times are sums and products of doubles: compare them with this much slack.
constexpr double kSlack = 1e-9;

// The round column sizes, finest first: 1, 2, 5, 10, ... microseconds (the simulator's tick).
double round_size(int i) {
  constexpr double kSteps[] = {1, 2, 5};
  return kSteps[i % 3] * std::pow(10.0, i / 3 - 3);
}
constexpr int kOneMs = 9;  // round_size(kOneMs) == 1

bool takes_time(const verdict::TimelineEvent& e) { return e.end_ms > e.start_ms; }

// The shortest operation that starts before `end` and takes time; infinity when there is none.
double shortest_before(const std::vector<verdict::TimelineEvent>& timeline, double end) {
  double shortest = std::numeric_limits<double>::infinity();
  for (const verdict::TimelineEvent& e : timeline) {
    if (e.start_ms < end && takes_time(e)) shortest = std::min(shortest, e.end_ms - e.start_ms);
  }
  return shortest;
}

}  // namespace

Gantt gantt(const verdict::ScenarioResult& r, int max_columns) {
  Gantt chart;
  if (r.chart_window_ms <= 0 || r.utilisation.empty() || max_columns <= 0) return chart;
  // The finest size that fits the world's window, but not below 1 ms: finer would only stretch a
  // short chart.
  int size = kOneMs;
  while (r.chart_window_ms / round_size(size) > max_columns * (1 + kSlack)) ++size;
  // A column longer than an operation could hide it: finer columns, over a shorter window, until
  // none is longer than an operation that starts in the window.
  double window = r.chart_window_ms;
  while (size > 0 && round_size(size) > shortest_before(r.timeline, window) * (1 + kSlack)) {
    --size;
    window = std::min(r.chart_window_ms, max_columns * round_size(size));
  }
  chart.window_ms = window;
  chart.column_ms = round_size(size);
  const double column = chart.column_ms;
  const int columns = std::max(1, static_cast<int>(std::ceil(window / column - kSlack)));
  // The columns that [from, to) covers for some time.
  const auto columns_of = [&](double from, double to) {
    const int first = std::max(0, static_cast<int>(std::floor(from / column + kSlack)));
    const int last = std::min(columns - 1, static_cast<int>(std::ceil(to / column - kSlack)) - 1);
    return std::pair{first, last};
  };

  std::size_t width = 0;
  for (const auto& d : r.utilisation) width = std::max(width, d.device.size());
  for (std::size_t d = 0; d < r.utilisation.size(); ++d) {
    std::vector<const verdict::TimelineEvent*> ops;
    for (const verdict::TimelineEvent& e : r.timeline) {
      if (e.device == static_cast<int>(d) && takes_time(e) && e.start_ms < window) {
        ops.push_back(&e);
      }
    }
    std::stable_sort(ops.begin(), ops.end(),
                     [](const auto* a, const auto* b) { return a->start_ms < b->start_ms; });
    std::vector<double> covered(columns, 0), most(columns, 0);
    std::vector<char> glyph(columns, '.');
    std::vector<bool> overlap(columns, false);
    double busy_until = -std::numeric_limits<double>::infinity();
    for (const verdict::TimelineEvent* e : ops) {
      const auto [first, last] = columns_of(e->start_ms, e->end_ms);
      for (int c = first; c <= last; ++c) {
        const double part =
            std::min(e->end_ms, (c + 1) * column) - std::max(e->start_ms, c * column);
        if (part <= column * 1e-6) continue;  // touches the column's edge only
        covered[c] += part;
        if (part > most[c]) most[c] = part, glyph[c] = e->glyph;
      }
      // Sorted by start, an operation overlaps an earlier one exactly when it starts before the
      // latest end so far.
      if (e->start_ms < busy_until - kSlack) {
        const auto [from, to] = columns_of(e->start_ms, std::min(busy_until, e->end_ms));
        for (int c = from; c <= to; ++c) overlap[c] = true;
      }
      busy_until = std::max(busy_until, e->end_ms);
    }
    std::string cells(columns, '.');
    for (int c = 0; c < columns; ++c) {
      if (overlap[c]) {
        cells[c] = '!';
      } else if (covered[c] >= column * (1 - 1e-6)) {
        cells[c] = glyph[c];
      } else if (covered[c] > 0) {  // busy part of the column: shown, never as idle
        cells[c] = static_cast<char>(std::tolower(static_cast<unsigned char>(glyph[c])));
      }
    }
    std::string name = r.utilisation[d].device;
    name.resize(width, ' ');
    chart.rows.push_back(name + " |" + cells + "|");
  }
  return chart;
}

}  // namespace overlap::report
