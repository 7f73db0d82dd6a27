#include "report_json.hpp"

#include <boost/json.hpp>
#include <cmath>

namespace overlap::report {

namespace json = boost::json;

namespace {

// Whole numbers print as integers ("2880", not "2.88E3"); the rest keep their precision.
void whole_numbers_as_integers(json::value& v) {
  if (v.is_double()) {
    const double d = v.get_double();
    if (std::isfinite(d) && d == std::floor(d) && std::abs(d) < 1e15) {
      v = static_cast<std::int64_t>(d);
    }
  } else if (v.is_array()) {
    for (json::value& e : v.get_array()) whole_numbers_as_integers(e);
  } else if (v.is_object()) {
    for (auto& member : v.get_object()) whole_numbers_as_integers(member.value());
  }
}

}  // namespace

json::value to_json(const grade::Report& report) {
  json::object out;
  out["schema"] = "overlap-report";
  out["schema_version"] = kSchemaVersion;
  json::object described = json::value_from(report).as_object();
  for (auto& member : described) out[member.key()] = std::move(member.value());
  // The timeline is for the terminal chart and the trace, not for the versioned report.
  for (json::value& scenario : out["scenarios"].as_array()) {
    json::object kept;
    for (auto& member : scenario.as_object()) {
      if (member.key() != "timeline" && member.key() != "chart_window_ms") {
        kept[member.key()] = std::move(member.value());
      }
    }
    scenario = std::move(kept);
  }
  json::value value = std::move(out);
  whole_numbers_as_integers(value);
  return value;
}

}  // namespace overlap::report
