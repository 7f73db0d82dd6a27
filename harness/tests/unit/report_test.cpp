// Verdicts, the JSON report, the Chrome trace and the Gantt chart.
#include <boost/describe/members.hpp>
#include <boost/json.hpp>
#include <boost/mp11/algorithm.hpp>
#include <boost/test/unit_test.hpp>

#include "../../report/gantt.hpp"
#include "../../report/report_json.hpp"
#include "../../report/trace.hpp"
#include "../../result/verdict.hpp"

using namespace overlap;
namespace json = boost::json;

namespace {

grade::ScenarioResult sample() {
  grade::ScenarioResult r;
  r.name = "default";
  r.description = "4 stages";
  r.finished = true;
  r.makespan_ms = 40;
  r.baseline_ms = 100;
  r.bound_ms = 30;
  r.optimum_ms = 30;
  r.bound_derivation = "closed form";
  r.utilisation = {{"stage 0", 30, 0.75}, {"stage 1", 20, 0.5}};
  r.peak_memory = {{"stage 0 activations", "stashes", 2, 4}};
  r.figures = {{"bubble fraction", 0.375, ""}};
  r.timeline = {{0, "forward", "step 0, mb 0", 'F', 0, 10, "done"},
                {0, "backward", "step 0, mb 0", 'B', 20, 40, "done"},
                {1, "forward", "step 0, mb 0", 'F', 10, 20, "done"},
                {1, "forward", "step 0, mb 1", 'F', 15, 25, "done"}};
  r.chart_window_ms = 40;
  return r;
}

}  // namespace

BOOST_AUTO_TEST_SUITE(reports)

BOOST_AUTO_TEST_CASE(tiers_follow_the_stated_thresholds) {
  grade::ScenarioResult r = sample();  // baseline 100, optimum 30: pass at <= 65, optimal <= 30.6
  for (auto [makespan, tier] : {std::pair{30.6, grade::Tier::optimal},
                                {30.7, grade::Tier::pass},
                                {65.0, grade::Tier::pass},
                                {65.1, grade::Tier::slow}}) {
    r.makespan_ms = makespan;
    grade::judge(r);
    BOOST_TEST(grade::tier_name(r.verdict) == grade::tier_name(tier));
  }
  BOOST_TEST(r.pass_speedup == 100.0 / 65.0);
  r.violations_total = 1;
  grade::judge(r);
  BOOST_TEST(grade::tier_name(r.verdict) == std::string("fail"));
  r.violations_total = 0;
  r.finished = false;
  grade::judge(r);
  BOOST_TEST(grade::tier_name(r.verdict) == std::string("fail"));
}

BOOST_AUTO_TEST_CASE(the_overall_verdict_is_the_worst_and_sets_the_exit_code) {
  grade::ScenarioResult a = sample(), b = sample();
  a.verdict = grade::Tier::optimal;
  b.verdict = grade::Tier::slow;
  BOOST_TEST(grade::tier_name(grade::overall({a, b})) == std::string("slow"));
  BOOST_TEST(grade::exit_code(grade::overall({a, b})) == 1);
  BOOST_TEST(grade::exit_code(grade::overall({a})) == 0);
  BOOST_TEST(grade::exit_code(grade::overall({})) == 1);
}

BOOST_AUTO_TEST_CASE(the_json_report_has_the_versioned_schema) {
  grade::Report rep;
  rep.exercise = "pipeline";
  rep.submission = "exercises/pipeline/train.cpp";
  rep.compiler = "clang++ 14.0.6 -O0 -gline-tables-only";
  rep.scenarios = {sample()};
  grade::judge(rep.scenarios[0]);
  rep.verdict = grade::overall(rep.scenarios);
  const json::object o = report::to_json(rep).as_object();
  std::vector<std::string> keys;
  for (const auto& member : o) keys.emplace_back(member.key());
  BOOST_TEST(keys == (std::vector<std::string>{"schema", "schema_version", "exercise", "submission",
                                               "compiler", "provenance", "verdict", "scenarios"}),
             boost::test_tools::per_element());
  keys.clear();
  for (const auto& member : o.at("provenance").as_object()) keys.emplace_back(member.key());
  BOOST_TEST(keys == (std::vector<std::string>{"submission_sha256", "kit_commit", "kit_modified",
                                               "time_limit_s"}),
             boost::test_tools::per_element());
  BOOST_TEST(o.at("schema_version").as_int64() == 1);
  BOOST_TEST(o.at("verdict").as_string() == "pass");
  const json::object& s = o.at("scenarios").as_array()[0].as_object();
  keys.clear();
  for (const auto& member : s) keys.emplace_back(member.key());
  BOOST_TEST(
      keys == (std::vector<std::string>{"name",         "description",      "baseline_ms",
                                        "bound_ms",     "bound_derivation", "optimum_ms",
                                        "optimum_note", "finished",         "makespan_ms",
                                        "violations",   "violations_total", "peak_memory",
                                        "utilisation",  "figures",          "output",
                                        "correct",      "verdict",          "speedup",
                                        "efficiency",   "pass_speedup",     "optimal_speedup"}),
      boost::test_tools::per_element());
  BOOST_TEST(s.at("makespan_ms").as_int64() == 40);  // whole numbers print as integers
  BOOST_TEST(s.at("efficiency").as_double() == 0.75);
  BOOST_TEST(s.at("utilisation").as_array()[0].as_object().at("device").as_string() == "stage 0");
}

BOOST_AUTO_TEST_CASE(the_trace_has_one_track_per_device_and_complete_events) {
  grade::Report rep;
  rep.exercise = "pipeline";
  rep.scenarios = {sample()};
  const json::array events = report::trace_json(rep).as_object().at("traceEvents").as_array();
  int threads = 0, complete = 0;
  for (const auto& e : events) {
    const auto& o = e.as_object();
    if (o.at("ph").as_string() == "M" && o.at("name").as_string() == "thread_name") ++threads;
    if (o.at("ph").as_string() == "X") {
      ++complete;
      BOOST_TEST(o.contains("ts"));
      BOOST_TEST(o.contains("dur"));
    }
  }
  BOOST_TEST(threads == 2);
  BOOST_TEST(complete == 4);
  const auto& backward = events[4].as_object();       // after 3 metadata events and the first op
  BOOST_TEST(backward.at("ts").as_int64() == 20000);  // microseconds
  BOOST_TEST(backward.at("dur").as_int64() == 20000);
}

BOOST_AUTO_TEST_CASE(the_gantt_chart_shows_work_idle_time_and_overlaps) {
  const report::Gantt chart = report::gantt(sample(), 8);
  BOOST_TEST(chart.column_ms == 5);
  BOOST_REQUIRE_EQUAL(chart.rows.size(), 2u);
  BOOST_TEST(chart.rows[0] == "stage 0 |FF..BBBB|");
  BOOST_TEST(chart.rows[1] == "stage 1 |..F!F...|");
}

BOOST_AUTO_TEST_SUITE_END()
