// The interview's record: events through JSON and back, versions and minutes, a new session
// keeping the old, the line diff, and the page's parts.
#include "../../interview/session.hpp"

#include <unistd.h>

#include <boost/test/unit_test.hpp>
#include <filesystem>

#include "../../interview/session_page.hpp"

using namespace overlap;
using namespace overlap::interview;
namespace fs = std::filesystem;

namespace {

Event graded(std::int64_t time, const std::string& source, verdict::Tier tier,
             const std::string& violation = "") {
  Event e;
  e.kind = Event::Kind::grade;
  e.time = time;
  e.source = source;
  e.sha256 = "x";
  e.built = true;
  e.seed = 7;
  e.generated = 4;
  e.verdict = tier;
  e.scenarios = {{"default", tier, 1.5, violation}};
  e.report = "default (4 stages)\n  verdict SLOW <&>";
  return e;
}

Event hint(std::int64_t time, int n) {
  Event e;
  e.kind = Event::Kind::hint;
  e.time = time;
  e.hint = n;
  return e;
}

std::size_t occurrences(const std::string& text, const std::string& part) {
  std::size_t n = 0;
  for (auto at = text.find(part); at != std::string::npos; at = text.find(part, at + 1)) ++n;
  return n;
}

struct Folder {
  fs::path path =
      fs::temp_directory_path() / ("overlap-session-test-" + std::to_string(::getpid()));
  Folder() { fs::remove_all(path); }
  ~Folder() { fs::remove_all(path); }
};

}  // namespace

BOOST_AUTO_TEST_SUITE(session)

BOOST_AUTO_TEST_CASE(an_event_through_json_and_back) {
  const Event e =
      graded(1000, "line \"one\"\n\ttwo\n", verdict::Tier::pass, "deadlock at 40 ms: x");
  const Event back = from_json_text(to_json_line(e));
  BOOST_TEST(back.source == e.source);
  BOOST_TEST((back.verdict == verdict::Tier::pass));
  BOOST_TEST(back.scenarios.at(0).violation == "deadlock at 40 ms: x");
  BOOST_TEST(back.scenarios.at(0).speedup == 1.5);
  BOOST_TEST(back.seed == 7u);
  BOOST_TEST(back.report == e.report);
  const Event h = from_json_text(to_json_line(hint(1060, 3)));
  BOOST_TEST((h.kind == Event::Kind::hint && h.hint == 3 && !h.shown));
  BOOST_CHECK_THROW(from_json_text("{\"event\":\"party\",\"time\":1}"), std::runtime_error);
}

BOOST_AUTO_TEST_CASE(minutes_and_versions) {
  Event start;
  start.time = 1000;
  const std::vector<Event> events = {start,
                                     graded(1100, "a", verdict::Tier::slow),
                                     graded(1130, "a", verdict::Tier::slow),  // same text
                                     hint(1300, 1),
                                     graded(1900, "b", verdict::Tier::fail),
                                     graded(2000, "a", verdict::Tier::slow),  // back to a
                                     graded(2100, "c", verdict::Tier::pass)};
  const auto steps = steps_of(events);
  BOOST_TEST(steps.size() == 7u);
  BOOST_TEST(steps[1].minute == 1);
  BOOST_TEST((steps[1].version == 1 && steps[1].new_version));
  BOOST_TEST((steps[2].version == 1 && !steps[2].new_version));
  BOOST_TEST(steps[3].minute == 5);
  BOOST_TEST((steps[4].version == 2 && steps[4].minute == 15));
  // A text graded before keeps its number; the next new one takes the next.
  BOOST_TEST((steps[5].version == 1 && !steps[5].new_version));
  BOOST_TEST((steps[6].version == 3 && steps[6].new_version));
}

BOOST_AUTO_TEST_CASE(a_far_off_time_is_clamped) {
  Event start;
  start.time = 1000;
  const auto steps =
      steps_of({start, graded(1000 + 2'000'000'000LL * 60, "a", verdict::Tier::slow), hint(-5, 1)});
  BOOST_TEST(steps[1].minute == kLastMinute);
  BOOST_TEST(steps[2].minute == 0);  // before the start: at it
}

BOOST_AUTO_TEST_CASE(reported_and_regraded_through_json) {
  Event h = hint(1060, 3);
  h.reported = true;
  const Event back = from_json_text(to_json_line(h));
  BOOST_TEST((back.reported && !back.regraded && !trusted(back) && !time_trusted(back)));
  Event g = graded(1100, "a", verdict::Tier::slow);
  g.regraded = true;
  const Event again = from_json_text(to_json_line(g));
  BOOST_TEST((again.regraded && trusted(again) && !time_trusted(again)));
  // This machine's own events say neither.
  BOOST_TEST(to_json_line(graded(1, "a", verdict::Tier::slow)).find("reported") ==
             std::string::npos);
  // A grade recorded before `full_set` was: read from the options it kept.
  std::string old = to_json_line(graded(1, "a", verdict::Tier::slow));
  old.erase(old.find(",\"full_set\":false"), std::string(",\"full_set\":false").size());
  BOOST_TEST(!from_json_text(old).full_set);  // seed 7: not the public seed
}

BOOST_AUTO_TEST_CASE(a_new_session_keeps_the_old) {
  const Folder folder;
  const fs::path first = current_session(folder.path);
  append(first, graded(now_seconds(), "a", verdict::Tier::slow));
  BOOST_TEST(current_session(folder.path) == first);
  BOOST_TEST(read_events(first).size() == 2u);  // its start and the grade
  const fs::path second = start_session(folder.path, now_seconds());
  BOOST_TEST(second != first);
  BOOST_TEST(current_session(folder.path) == second);
  BOOST_TEST(read_events(second).size() == 1u);
  BOOST_TEST(read_events(first).size() == 2u);
}

BOOST_AUTO_TEST_CASE(the_line_diff) {
  const auto d = line_diff("a\nb\nc\n", "a\nx\nc\nd\n");
  const std::vector<std::pair<char, std::string>> expected = {
      {' ', "a"}, {'-', "b"}, {'+', "x"}, {' ', "c"}, {'+', "d"}};
  BOOST_TEST((d == expected));
  BOOST_TEST(line_diff("", "").empty());
}

Event full(Event e) {
  e.seed = 1;
  e.full_set = true;
  return e;
}

BOOST_AUTO_TEST_CASE(the_page_has_every_grade_version_and_hint) {
  Event start;
  start.time = 1000;
  const std::vector<Event> events = {
      start, full(graded(1100, "int a;\n", verdict::Tier::slow)), hint(1300, 2),
      full(graded(1900, "int b;\n", verdict::Tier::fail, "deadlock <x>"))};
  const std::string page = session_page("pipeline", "s1", events);
  BOOST_TEST(occurrences(page, "<circle class=\"grade") == 2u);
  BOOST_TEST(occurrences(page, "<line class=\"hint\"") == 1u);
  BOOST_TEST(occurrences(page, "<section class=\"version\"") == 2u);
  BOOST_TEST(occurrences(page, "<span class=\"del\">- int a;</span>") == 1u);
  BOOST_TEST(occurrences(page, "<span class=\"add\">+ int b;</span>") == 1u);
  BOOST_TEST(occurrences(page, "deadlock &lt;x&gt;") == 1u);          // escaped
  BOOST_TEST(occurrences(page, "verdict SLOW &lt;&amp;&gt;") == 1u);  // the last report
  BOOST_TEST(page.find("<script") == std::string::npos);
}

BOOST_AUTO_TEST_CASE(the_chart_has_the_default_set_s_grades_alone) {
  Event start;
  start.time = 1000;
  Event part = graded(1100, "int a;\n", verdict::Tier::optimal);
  part.scenario = "two-stage";
  part.seed = 1;
  Event claimed = full(graded(1200, "int b;\n", verdict::Tier::optimal));
  claimed.reported = true;
  const std::string page =
      session_page("pipeline", "s1",
                   {start, part, claimed, full(graded(1300, "int a;\n", verdict::Tier::slow))});
  BOOST_TEST(occurrences(page, "<circle class=\"grade") == 1u);
  BOOST_TEST(occurrences(page, "data-tier=\"slow\"") == 1u);
  BOOST_TEST(occurrences(page, "<tr class=\"grade partial\"") == 1u);
  BOOST_TEST(occurrences(page, "--scenario two-stage only") == 1u);
  BOOST_TEST(occurrences(page, "<tr class=\"grade reported\"") == 1u);
}

BOOST_AUTO_TEST_CASE(the_axis_is_bounded_and_control_characters_shown) {
  Event start;
  start.time = 1000;
  Event far = hint(1000 + 2'000'000'000LL * 60, 1);
  Event g = full(graded(1100, "int a; // \x1b[2J\n", verdict::Tier::fail, "x \x1b]0;owned\x07"));
  const std::string page = session_page("pipeline", "s1", {start, g, far});
  BOOST_TEST(occurrences(page, "<text x=") < 40u);  // tier names and at most ~20 minutes
  BOOST_TEST(page.size() < 100'000u);
  BOOST_TEST(page.find('\x1b') == std::string::npos);
  BOOST_TEST(page.find('\x07') == std::string::npos);
  BOOST_TEST(occurrences(page, "\\x1b") == 2u);
}

BOOST_AUTO_TEST_SUITE_END()
