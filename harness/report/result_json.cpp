#include "result_json.hpp"

#include <boost/json.hpp>
#include <cmath>

#include "../grader/verdict.hpp"

namespace overlap::report {

namespace json = boost::json;

namespace {

// Whole numbers print as integers ("2880", not "2.88E3"); the rest keep their precision.
json::value number(double v) {
  if (std::isfinite(v) && v == std::floor(v) && std::abs(v) < 1e15) {
    return static_cast<std::int64_t>(v);
  }
  return v;
}

double to_double(const json::value& v) { return v.to_number<double>(); }

grade::Tier tier_from(std::string_view name) {
  for (grade::Tier t :
       {grade::Tier::fail, grade::Tier::slow, grade::Tier::pass, grade::Tier::optimal}) {
    if (name == grade::tier_name(t)) return t;
  }
  throw std::runtime_error("unknown tier");
}

}  // namespace

json::value to_json(const grade::ScenarioResult& r, Detail detail) {
  json::object o;
  o["name"] = r.name;
  o["description"] = r.description;
  o["verdict"] = grade::tier_name(r.verdict);
  o["correct"] = r.correct;
  o["finished"] = r.finished;
  o["makespan_ms"] = number(r.makespan_ms);
  o["baseline_ms"] = number(r.baseline_ms);
  o["bound_ms"] = number(r.bound_ms);
  o["bound_derivation"] = r.bound_derivation;
  o["optimum_ms"] = number(r.optimum_ms);
  o["optimum_note"] = r.optimum_note;
  o["speedup"] = number(r.speedup);
  o["efficiency"] = number(r.efficiency);
  o["pass_speedup"] = number(r.pass_speedup);
  o["optimal_speedup"] = number(r.optimal_speedup);
  json::array violations;
  for (const auto& v : r.violations) {
    violations.push_back({{"kind", v.kind}, {"message", v.message}, {"at_ms", number(v.at_ms)}});
  }
  o["violations"] = std::move(violations);
  o["violations_total"] = r.violations_total;
  json::array memory;
  for (const auto& m : r.peak_memory) {
    memory.push_back({{"pool", m.pool},
                      {"unit", m.unit},
                      {"peak", number(m.peak)},
                      {"budget", number(m.budget)}});
  }
  o["peak_memory"] = std::move(memory);
  json::array devices;
  for (const auto& d : r.devices) {
    devices.push_back({{"device", d.device},
                       {"busy_ms", number(d.busy_ms)},
                       {"utilisation", number(d.utilisation)}});
  }
  o["utilisation"] = std::move(devices);
  json::array figures;
  for (const auto& f : r.figures) {
    figures.push_back({{"name", f.name}, {"value", number(f.value)}, {"unit", f.unit}});
  }
  o["figures"] = std::move(figures);
  if (detail == Detail::with_timeline) {
    o["chart_window_ms"] = number(r.chart_window_ms);
    json::array timeline;
    for (const auto& e : r.timeline) {
      timeline.push_back({{"device", e.device},
                          {"kind", e.kind},
                          {"detail", e.detail},
                          {"glyph", std::string(1, e.glyph)},
                          {"start_ms", number(e.start_ms)},
                          {"end_ms", number(e.end_ms)},
                          {"status", e.status}});
    }
    o["timeline"] = std::move(timeline);
  }
  return o;
}

json::value to_json(const grade::Report& report) {
  json::object o;
  o["schema"] = "overlap-report";
  o["schema_version"] = report.schema;
  o["exercise"] = report.exercise;
  o["submission"] = report.submission;
  o["verdict"] = grade::tier_name(report.verdict);
  json::array scenarios;
  for (const auto& s : report.scenarios) scenarios.push_back(to_json(s, Detail::summary));
  o["scenarios"] = std::move(scenarios);
  return o;
}

grade::ScenarioResult result_from_json(const json::value& value) {
  const json::object& o = value.as_object();
  grade::ScenarioResult r;
  r.name = json::value_to<std::string>(o.at("name"));
  r.description = json::value_to<std::string>(o.at("description"));
  r.verdict = tier_from(o.at("verdict").as_string());
  r.correct = o.at("correct").as_bool();
  r.finished = o.at("finished").as_bool();
  r.makespan_ms = to_double(o.at("makespan_ms"));
  r.baseline_ms = to_double(o.at("baseline_ms"));
  r.bound_ms = to_double(o.at("bound_ms"));
  r.bound_derivation = json::value_to<std::string>(o.at("bound_derivation"));
  r.optimum_ms = to_double(o.at("optimum_ms"));
  r.optimum_note = json::value_to<std::string>(o.at("optimum_note"));
  r.speedup = to_double(o.at("speedup"));
  r.efficiency = to_double(o.at("efficiency"));
  r.pass_speedup = to_double(o.at("pass_speedup"));
  r.optimal_speedup = to_double(o.at("optimal_speedup"));
  for (const auto& v : o.at("violations").as_array()) {
    const auto& e = v.as_object();
    r.violations.push_back({json::value_to<std::string>(e.at("kind")),
                            json::value_to<std::string>(e.at("message")),
                            to_double(e.at("at_ms"))});
  }
  r.violations_total = json::value_to<std::size_t>(o.at("violations_total"));
  for (const auto& v : o.at("peak_memory").as_array()) {
    const auto& e = v.as_object();
    r.peak_memory.push_back({json::value_to<std::string>(e.at("pool")),
                             json::value_to<std::string>(e.at("unit")), to_double(e.at("peak")),
                             to_double(e.at("budget"))});
  }
  for (const auto& v : o.at("utilisation").as_array()) {
    const auto& e = v.as_object();
    r.devices.push_back({json::value_to<std::string>(e.at("device")), to_double(e.at("busy_ms")),
                         to_double(e.at("utilisation"))});
  }
  for (const auto& v : o.at("figures").as_array()) {
    const auto& e = v.as_object();
    r.figures.push_back({json::value_to<std::string>(e.at("name")), to_double(e.at("value")),
                         json::value_to<std::string>(e.at("unit"))});
  }
  if (const auto* window = o.if_contains("chart_window_ms")) r.chart_window_ms = to_double(*window);
  if (const auto* timeline = o.if_contains("timeline")) {
    for (const auto& v : timeline->as_array()) {
      const auto& e = v.as_object();
      const std::string glyph = json::value_to<std::string>(e.at("glyph"));
      r.timeline.push_back(
          {static_cast<int>(e.at("device").to_number<std::int64_t>()),
           json::value_to<std::string>(e.at("kind")), json::value_to<std::string>(e.at("detail")),
           glyph.empty() ? '#' : glyph[0], to_double(e.at("start_ms")), to_double(e.at("end_ms")),
           json::value_to<std::string>(e.at("status"))});
    }
  }
  return r;
}

}  // namespace overlap::report
