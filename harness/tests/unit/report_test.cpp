// Verdicts, the JSON report, the Chrome trace, the Gantt chart and the HTML page.
#include <boost/describe/members.hpp>
#include <boost/json.hpp>
#include <boost/mp11/algorithm.hpp>
#include <boost/test/unit_test.hpp>
#include <sstream>

#include "../../report/gantt.hpp"
#include "../../report/html_report.hpp"
#include "../../report/report_json.hpp"
#include "../../report/text_report.hpp"
#include "../../report/trace.hpp"
#include "../../verdict/verdict.hpp"

using namespace overlap;
namespace json = boost::json;

namespace {

std::size_t occurrences(const std::string& text, const std::string& part) {
  std::size_t n = 0;
  for (auto at = text.find(part); at != std::string::npos; at = text.find(part, at + 1)) ++n;
  return n;
}

verdict::ScenarioResult sample() {
  verdict::ScenarioResult r;
  r.name = "default";
  r.description = "4 stages";
  r.finished = true;
  r.makespan_ms = 40;
  r.baseline_ms = 100;
  r.bound_ms = 30;
  r.best_known_ms = 30;
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
  verdict::ScenarioResult r =
      sample();  // baseline 100, best known 30: pass at <= 65, optimal <= 30.6
  for (auto [makespan, tier] : {std::pair{30.6, verdict::Tier::optimal},
                                {30.7, verdict::Tier::pass},
                                {65.0, verdict::Tier::pass},
                                {65.1, verdict::Tier::slow}}) {
    r.makespan_ms = makespan;
    verdict::rate(r);
    BOOST_TEST(verdict::tier_name(r.verdict) == verdict::tier_name(tier));
  }
  BOOST_TEST(r.pass_speedup == 100.0 / 65.0);
  r.violations_total = 1;
  verdict::rate(r);
  BOOST_TEST(verdict::tier_name(r.verdict) == std::string("fail"));
  r.violations_total = 0;
  r.finished = false;
  verdict::rate(r);
  BOOST_TEST(verdict::tier_name(r.verdict) == std::string("fail"));
}

BOOST_AUTO_TEST_CASE(the_overall_verdict_is_the_worst_and_sets_the_exit_code) {
  verdict::ScenarioResult a = sample(), b = sample();
  a.verdict = verdict::Tier::optimal;
  b.verdict = verdict::Tier::slow;
  BOOST_TEST(verdict::tier_name(verdict::overall({a, b})) == std::string("slow"));
  BOOST_TEST(verdict::exit_code(verdict::overall({a, b})) == 1);
  BOOST_TEST(verdict::exit_code(verdict::overall({a})) == 0);
  BOOST_TEST(verdict::exit_code(verdict::overall({})) == 1);
}

BOOST_AUTO_TEST_CASE(the_json_report_has_the_versioned_schema) {
  verdict::Report rep;
  rep.exercise = "pipeline";
  rep.submission = "exercises/pipeline/train.cpp";
  rep.compiler = "clang++ 14.0.6 -O0 -gline-tables-only";
  rep.scenarios = {sample()};
  verdict::rate(rep.scenarios[0]);
  rep.verdict = verdict::overall(rep.scenarios);
  const json::object o = report::to_json(rep).as_object();
  std::vector<std::string> keys;
  for (const auto& member : o) keys.emplace_back(member.key());
  BOOST_TEST(
      keys == (std::vector<std::string>{"schema", "schema_version", "exercise", "submission",
                                        "compiler", "provenance", "seed", "verdict", "scenarios"}),
      boost::test_tools::per_element());
  keys.clear();
  for (const auto& member : o.at("provenance").as_object()) keys.emplace_back(member.key());
  BOOST_TEST(keys == (std::vector<std::string>{"submission_sha256", "kit_commit", "kit_modified",
                                               "time_limit_s", "namespaces"}),
             boost::test_tools::per_element());
  BOOST_TEST(o.at("schema_version").as_int64() == 4);
  BOOST_TEST(o.at("verdict").as_string() == "pass");
  const json::object& s = o.at("scenarios").as_array()[0].as_object();
  keys.clear();
  for (const auto& member : s) keys.emplace_back(member.key());
  BOOST_TEST(keys == (std::vector<std::string>{"name",
                                               "description",
                                               "baseline_ms",
                                               "bound_ms",
                                               "bound_derivation",
                                               "best_known_ms",
                                               "best_known_note",
                                               "hindsight_ms",
                                               "hindsight_note",
                                               "parameters",
                                               "finished",
                                               "makespan_ms",
                                               "violations",
                                               "violations_total",
                                               "peak_memory",
                                               "utilisation",
                                               "figures",
                                               "paths_taken",
                                               "output",
                                               "correct",
                                               "verdict",
                                               "speedup",
                                               "efficiency",
                                               "pass_speedup",
                                               "optimal_speedup"}),
             boost::test_tools::per_element());
  BOOST_TEST(s.at("makespan_ms").as_int64() == 40);  // whole numbers print as integers
  BOOST_TEST(s.at("efficiency").as_double() == 0.75);
  BOOST_TEST(s.at("utilisation").as_array()[0].as_object().at("device").as_string() == "stage 0");
}

BOOST_AUTO_TEST_CASE(the_trace_has_one_track_per_device_and_complete_events) {
  verdict::Report rep;
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
  BOOST_TEST(chart.window_ms == 40);
  BOOST_TEST(chart.column_ms == 5);
  BOOST_REQUIRE_EQUAL(chart.rows.size(), 2u);
  BOOST_TEST(chart.rows[0] == "stage 0 |FF..BBBB|");
  BOOST_TEST(chart.rows[1] == "stage 1 |..F!F...|");
}

// Under a rule of "busy at least half of the column", 10 ms operations every 50 ms in 100 ms
// columns showed as idle time throughout.
BOOST_AUTO_TEST_CASE(the_gantt_chart_shows_every_short_operation) {
  verdict::ScenarioResult r = sample();
  r.utilisation = {{"stage 0", 0, 0}};
  r.timeline.clear();
  for (int i = 0; i < 20; ++i) {
    r.timeline.push_back({0, "forward", "", 'F', 50.0 * i, 50.0 * i + 10, "done"});
  }
  r.timeline.push_back({0, "optimizer_step", "", 'o', 35, 35, "done"});  // no time: no column
  r.chart_window_ms = 1000;
  const report::Gantt chart = report::gantt(r, 10);
  BOOST_TEST(chart.column_ms == 10);   // no longer than the shortest operation
  BOOST_TEST(chart.window_ms == 100);  // shortened to fit 10 columns
  BOOST_REQUIRE_EQUAL(chart.rows.size(), 1u);
  BOOST_TEST(chart.rows[0] == "stage 0 |F....F....|");
}

BOOST_AUTO_TEST_CASE(the_gantt_chart_shows_a_partly_busy_column_in_lower_case) {
  verdict::ScenarioResult r = sample();
  r.utilisation = {{"w", 0, 0}};
  // 10 ms columns: the second operation half covers two of them; the last column is shared by
  // two operations, the one covering most of it shown.
  r.timeline = {{0, "compute", "", 'C', 0, 10, "done"},
                {0, "compute", "", 'C', 15, 25, "done"},
                {0, "pull", "", 'P', 38, 52, "done"},
                {0, "compute", "", 'C', 52, 62, "done"}};
  r.chart_window_ms = 60;
  const report::Gantt chart = report::gantt(r, 6);
  BOOST_TEST(chart.column_ms == 10);
  BOOST_TEST(chart.window_ms == 60);
  BOOST_REQUIRE_EQUAL(chart.rows.size(), 1u);
  BOOST_TEST(chart.rows[0] == "w |CccpPC|");
}

BOOST_AUTO_TEST_CASE(html_escape_replaces_the_five_special_characters) {
  BOOST_TEST(report::html_escape("a&b<c>d\"e'f") == "a&amp;b&lt;c&gt;d&quot;e&#39;f");
}

// Every text on the page comes from the submission or the world: none of it may become markup.
BOOST_AUTO_TEST_CASE(the_html_page_escapes_every_text_it_shows) {
  const std::string hostile = "<script>alert(\"x\" & 'y')</script>";
  const std::string escaped = "&lt;script&gt;alert(&quot;x&quot; &amp; &#39;y&#39;)&lt;/script&gt;";
  verdict::Report rep;
  rep.exercise = rep.submission = rep.compiler = rep.provenance.kit_commit = hostile;
  verdict::ScenarioResult r = sample();
  r.name = r.description = r.bound_derivation = r.best_known_note = r.hindsight_note = r.output =
      hostile;
  r.hindsight_ms = 25;
  r.utilisation[0].device = r.peak_memory[0].pool = r.peak_memory[0].unit = hostile;
  r.figures[0].name = r.timeline[0].kind = r.timeline[0].detail = r.timeline[0].status = hostile;
  r.violations = {{hostile, hostile, 20}};
  r.violations_total = 1;
  verdict::rate(r);
  rep.scenarios = {r};
  const std::string page = report::html_page(rep);
  BOOST_TEST(occurrences(page, "<script>") == 2u);  // the page's own: the error recorder, the check
  BOOST_TEST(occurrences(page, hostile) == 0u);
  BOOST_TEST(occurrences(page, escaped) >= 16u);
  // One row per device, and the violation linked to its marker on the timeline.
  BOOST_TEST(occurrences(page, "<svg class=\"timeline\"") == 1u);
  BOOST_TEST(occurrences(page, "<g class=\"device-row\"") == 2u);
  BOOST_TEST(occurrences(page, "<li><a href=\"#s0-v0\">") == 1u);
  BOOST_TEST(occurrences(page, "<g class=\"violation-marker\" id=\"s0-v0\">") == 1u);
}

// --summary (what watch shows): each scenario's verdict and its first violation, then the total
// line; none of the rest of the report.
BOOST_AUTO_TEST_CASE(the_summary_gives_verdicts_first_violations_and_the_total) {
  verdict::Report rep;
  rep.exercise = "pipeline";
  verdict::ScenarioResult clean = sample(), wrong = sample();
  wrong.name = "deep";
  wrong.violations = {{"contention", "two kernels on stage 1", 12}, {"deadlock", "stuck", 30}};
  wrong.violations_total = 2;
  verdict::rate(clean);
  verdict::rate(wrong);
  rep.scenarios = {clean, wrong};
  rep.verdict = verdict::overall(rep.scenarios);
  std::ostringstream out;
  report::print_summary(rep, out);
  const std::string text = out.str();
  BOOST_TEST(text.find("\ndefault (4 stages)\n  verdict     PASS: correct, speedup 2.50x") !=
             std::string::npos);
  BOOST_TEST(text.find("\ndeep (4 stages)\n  verdict     FAIL: the run is not correct") !=
             std::string::npos);
  BOOST_TEST(occurrences(text, "    [contention] at 12 ms: two kernels on stage 1\n") == 1u);
  BOOST_TEST(occurrences(text, "deadlock") == 0u);
  BOOST_TEST(text.ends_with("\npipeline: FAIL (default pass 2.50x, deep fail)\n"));
  for (const char* rest : {"makespan", "bound", "peak memory", "utilisation", "timeline"}) {
    BOOST_TEST(occurrences(text, rest) == 0u, rest);
  }
}

BOOST_AUTO_TEST_SUITE_END()
