// Generated scenarios: names that replay, draws that depend on (seed, k, attempt) alone, every
// world's generator deterministic, the grader's choice of scenarios from its options, and a
// world's table of named and stretch scenarios.
#include "../../worlds/common/generated.hpp"

#include <boost/test/unit_test.hpp>
#include <cmath>
#include <stdexcept>
#include <string>
#include <vector>

#include "../../judge/selection.hpp"
#include "../../worlds/common/exercise.hpp"
#include "../../worlds/common/scenario_table.hpp"

using namespace overlap;

namespace {

std::vector<std::string> names_of(const std::vector<worlds::ScenarioInfo>& scenarios) {
  std::vector<std::string> out;
  for (const auto& s : scenarios) out.push_back(s.name);
  return out;
}

}  // namespace

BOOST_AUTO_TEST_SUITE(generated)

BOOST_AUTO_TEST_CASE(a_generated_name_says_its_seed_and_index_and_nothing_else_parses) {
  const auto parsed = worlds::parse_generated_name("seed-18446744073709551615-12");
  BOOST_REQUIRE(parsed);
  BOOST_TEST(parsed->seed == 18446744073709551615ULL);
  BOOST_TEST(parsed->k == 12);
  BOOST_TEST(worlds::generated_name(7, 3) == "seed-7-3");
  for (const char* bad :
       {"seed-7", "seed-7-", "seed--7-3", "seed-07-3", "seed-7-03", "seed-7-3x", "seed-7-+3",
        "seed-18446744073709551616-0", "seed-1-99999999999", "default", "Seed-7-3", "seed-7--3"}) {
    BOOST_TEST(!worlds::parse_generated_name(bad), bad);
  }
}

BOOST_AUTO_TEST_CASE(draws_depend_on_seed_index_and_attempt_alone) {
  worlds::Draw a(5, 2, 0), b(5, 2, 0), other_k(5, 3, 0), other_attempt(5, 2, 1);
  int differ_k = 0, differ_attempt = 0;
  for (int i = 0; i < 100; ++i) {
    const double x = a.unit();
    BOOST_TEST(x == b.unit());
    BOOST_TEST((x >= 0 && x < 1));
    differ_k += x != other_k.unit();
    differ_attempt += x != other_attempt.unit();
  }
  BOOST_TEST(differ_k == 100);
  BOOST_TEST(differ_attempt == 100);
  worlds::Draw d(1, 0, 0);
  for (int i = 0; i < 1000; ++i) {
    const int n = d.integer(2, 8);
    BOOST_TEST((n >= 2 && n <= 8));
    const double ms = d.ms(5, 20);
    BOOST_TEST((ms >= 5 && ms <= 20));
    BOOST_TEST(std::abs(ms * 1000 - std::round(ms * 1000)) < 1e-6);  // whole microseconds
  }
}

BOOST_AUTO_TEST_CASE(every_world_generates_the_same_scenario_for_the_same_name) {
  for (const std::string& name : worlds::exercise_names()) {
    BOOST_TEST_CONTEXT(name) {
      const auto exercise = worlds::exercise_named(name);
      const auto set = exercise->generated(11, 4);
      BOOST_TEST(names_of(set) ==
                 (std::vector<std::string>{"seed-11-0", "seed-11-1", "seed-11-2", "seed-11-3"}));
      const auto again = exercise->find("seed-11-2");
      BOOST_REQUIRE(again);
      BOOST_TEST(again->description == set[2].description);
      BOOST_TEST(set[0].description != set[1].description);
      BOOST_TEST(exercise->generated(12, 1)[0].description != set[0].description);
      BOOST_TEST(set[3].description.find('\n') == std::string::npos);
    }
  }
}

BOOST_AUTO_TEST_CASE(the_options_choose_named_generated_one_or_a_usage_error) {
  const auto exercise = worlds::exercise_named("pipeline");
  const auto named = names_of(exercise->scenarios());
  judge::SelectionRequest request;
  auto all = judge::select_scenarios(*exercise, request);
  BOOST_TEST(all.seed == worlds::kPublicSeed);
  BOOST_TEST(all.scenarios.size() == named.size() + worlds::kDefaultGenerated);
  request.scenario = "named";
  BOOST_TEST(names_of(judge::select_scenarios(*exercise, request).scenarios) == named);
  request.scenario = "generated";
  request.seed = 9;
  request.generated = 2;
  BOOST_TEST(names_of(judge::select_scenarios(*exercise, request).scenarios) ==
             (std::vector<std::string>{"seed-9-0", "seed-9-1"}));
  request.scenario = "seed-4-6";
  const auto one = judge::select_scenarios(*exercise, request);
  BOOST_TEST(one.seed == 4u);  // the name's seed, whatever --seed said
  BOOST_TEST(names_of(one.scenarios) == std::vector<std::string>{"seed-4-6"});
  request.scenario = "nope";
  BOOST_CHECK_THROW(judge::select_scenarios(*exercise, request), judge::UsageError);
  request.scenario = "generated";
  request.generated = 0;
  BOOST_CHECK_THROW(judge::select_scenarios(*exercise, request), judge::UsageError);
  request.generated = judge::kMaxGenerated + 1;
  BOOST_CHECK_THROW(judge::select_scenarios(*exercise, request), judge::UsageError);
  request = {};
  request.replay = "/nonexistent/report.json";
  BOOST_CHECK_THROW(judge::select_scenarios(*exercise, request), judge::UsageError);
}

// A name picks one named or stretch scenario of a world's table, and no two may share one; the
// stretch rows' derived figures are filled in once, when they are first read.
BOOST_AUTO_TEST_CASE(a_scenario_table_finds_by_name_refuses_a_name_twice_and_derives_once) {
  struct Row {
    std::string name;
    int figure = 0;
  };
  int derived = 0;
  auto derive = [&](Row& r) {
    ++derived;
    r.figure *= 10;
  };
  const worlds::ScenarioTable<Row> table({{"default", 1}, {"other", 2}}, {{"stretch-a", 3}},
                                         derive);
  BOOST_TEST(table.scenarios().size() == 2u);
  BOOST_TEST(table.find("other")->figure == 2);
  BOOST_TEST(derived == 0);
  BOOST_TEST(table.find("stretch-a")->figure == 30);
  BOOST_TEST(table.stretch().size() == 1u);
  BOOST_TEST(table.stretch()[0].figure == 30);
  BOOST_TEST(derived == 1);
  BOOST_TEST(!table.find("stretch-b"));
  BOOST_CHECK_THROW(worlds::ScenarioTable<Row>({{"default", 1}}, {{"default", 2}}),
                    std::logic_error);
  for (const std::string& name : worlds::exercise_names()) {
    BOOST_TEST_CONTEXT(name) {
      const auto exercise = worlds::exercise_named(name);
      for (const auto& s : exercise->stretch()) {
        const auto found = exercise->find(s.name);
        BOOST_REQUIRE(found);
        BOOST_TEST(found->description == s.description);
      }
    }
  }
}

BOOST_AUTO_TEST_SUITE_END()
