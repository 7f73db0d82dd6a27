#include "report_json.hpp"

#include <boost/describe/members.hpp>
#include <boost/json.hpp>
#include <boost/mp11/algorithm.hpp>
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

// Every described member but those `leave_out` names.
template <typename T, typename Skip>
json::object members(const T& value, Skip leave_out) {
  json::object out;
  boost::mp11::mp_for_each<boost::describe::describe_members<T, boost::describe::mod_public>>(
      [&](auto member) {
        if (!leave_out(std::string_view(member.name))) {
          out[member.name] = json::value_from(value.*member.pointer);
        }
      });
  return out;
}

}  // namespace

json::value to_json(const verdict::Report& report) {
  json::object out;
  out["schema"] = "overlap-report";
  out["schema_version"] = kSchemaVersion;
  for (auto& member : members(report, [](std::string_view name) { return name == "scenarios"; })) {
    out[member.key()] = std::move(member.value());
  }
  // The timeline is for the terminal chart and the trace, not for the versioned report.
  json::array& scenarios = out["scenarios"].emplace_array();
  for (const verdict::ScenarioResult& scenario : report.scenarios) {
    scenarios.push_back(members(scenario, [](std::string_view name) {
      return name == "timeline" || name == "chart_window_ms";
    }));
  }
  json::value value = std::move(out);
  whole_numbers_as_integers(value);
  return value;
}

}  // namespace overlap::report
