#include "trace.hpp"

#include <boost/json.hpp>
#include <cmath>

namespace overlap::report {

namespace json = boost::json;

namespace {

std::int64_t microseconds(double ms) { return std::llround(ms * 1000); }

}  // namespace

json::value trace_json(const verdict::Report& report) {
  json::array events;
  for (std::size_t i = 0; i < report.scenarios.size(); ++i) {
    const verdict::ScenarioResult& s = report.scenarios[i];
    const auto pid = static_cast<std::int64_t>(i + 1);
    events.push_back({{"name", "process_name"},
                      {"ph", "M"},
                      {"pid", pid},
                      {"args", {{"name", report.exercise + " / " + s.name}}}});
    for (std::size_t d = 0; d < s.utilisation.size(); ++d) {
      events.push_back({{"name", "thread_name"},
                        {"ph", "M"},
                        {"pid", pid},
                        {"tid", static_cast<std::int64_t>(d)},
                        {"args", {{"name", s.utilisation[d].device}}}});
    }
    for (const verdict::TimelineEvent& e : s.timeline) {
      events.push_back({{"name", e.detail.empty() ? e.kind : e.kind + " " + e.detail},
                        {"cat", e.kind},
                        {"ph", "X"},
                        {"ts", microseconds(e.start_ms)},
                        {"dur", microseconds(e.end_ms) - microseconds(e.start_ms)},
                        {"pid", pid},
                        {"tid", e.device},
                        {"args", {{"status", e.status}}}});
    }
  }
  return {{"traceEvents", std::move(events)}, {"displayTimeUnit", "ms"}};
}

}  // namespace overlap::report
