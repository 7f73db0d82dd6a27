// The parameter-server scenarios' figures: the planner's search over schedule families
// (planner.hpp: an event queue of its own, no Asio, no simulator) against the published figures
// of the named scenarios, the bound and the starter's rounds on generated ones, and the paths
// each family of generated scenarios is drawn to reach.
#include <fmt/format.h>

#include <algorithm>
#include <boost/test/unit_test.hpp>
#include <chrono>
#include <cmath>
#include <set>
#include <string>

#include "../../worlds/common/generated.hpp"
#include "../../worlds/param-server/planner.hpp"
#include "../../worlds/param-server/scenarios.hpp"
#include "../../worlds/param-server/world.hpp"

using namespace overlap::param_server;

BOOST_AUTO_TEST_SUITE(param_server_schedule)

BOOST_AUTO_TEST_CASE(every_scenario_states_the_best_known_schedule_and_a_bound_below_it) {
  for (const Scenario& s : scenario_table().scenarios()) {
    BOOST_TEST_CONTEXT(s.name) {
      const Plan best = best_known(s);
      BOOST_TEST(s.best_known_ms == best.ms, boost::test_tools::tolerance(1e-9));
      // The hindsight figure too: the search's best, where it beats the kit's rules.
      BOOST_TEST(s.hindsight_ms == std::max(best.hindsight_ms, 0.0),
                 boost::test_tools::tolerance(1e-9));
      const double bound = lower_bound(s).ms;
      BOOST_TEST(bound <= s.best_known_ms);
      // Optimal only where the bound proves it; otherwise the best the search knows.
      const bool proven = bound == s.best_known_ms;
      const std::string says = proven ? "optimal, on the bound" : "best known, not proven optimal";
      BOOST_TEST(s.best_known_note.rfind(says, 0) == 0u, s.best_known_note);
      // Every scenario leaves synchronous rounds well short of it.
      BOOST_TEST(baseline_ms(s) > 1.3 * s.best_known_ms);
    }
  }
}

BOOST_AUTO_TEST_CASE(the_figures_the_brief_states) {
  using Server = Policy::Server;
  const Scenario& d = *scenario_table().find("default");
  BOOST_TEST(baseline_ms(d) == 60 * (1 + 80 + 1));
  BOOST_TEST(lower_bound(d).ms == 1470);
  BOOST_TEST(simulate(d, pull_based(d)).makespan_ms == 1476);
  BOOST_TEST(simulate(d, pull_based(d, Server::average)).makespan_ms == 1476);
  Policy two = pull_based(d);
  two.team = 2;
  BOOST_TEST(simulate(d, two).makespan_ms == 1870);
  // Pushes one at a time: the server queues 32 workers; averages do not.
  const Scenario& many = *scenario_table().find("many-workers");
  BOOST_TEST(simulate(many, pull_based(many)).makespan_ms == 1715.5);
  BOOST_TEST(simulate(many, pull_based(many, Server::average)).makespan_ms == 1660.5);
  const Scenario& jitter = *scenario_table().find("jitter");
  BOOST_TEST(simulate(jitter, pull_based(jitter)).makespan_ms == 1352.747,
             boost::test_tools::tolerance(1e-9));
  BOOST_TEST(simulate(jitter, pull_based(jitter, Server::average)).makespan_ms == 1351.844,
             boost::test_tools::tolerance(1e-9));
  // A bound of 4: retiring stale workers leaves the two fastest; averages paced by the fastest
  // keep versions slow enough for the 40 ms worker too.
  const Scenario& tight = *scenario_table().find("tight-staleness");
  BOOST_TEST(simulate(tight, pull_based(tight)).makespan_ms == 1870);
  Policy paced = pull_based(tight, Server::average);
  paced.pace = 1;
  BOOST_TEST(simulate(tight, paced).makespan_ms == 1654);
  // A failure takes capacity away: the bound counts worker 0 only until it fails.
  BOOST_TEST(lower_bound(*scenario_table().find("worker-failure")).ms == 2624);
}

BOOST_AUTO_TEST_CASE(the_failures_and_the_bound_hit_where_the_descriptions_say) {
  using At = Outcome::At;
  for (auto server : {Policy::Server::push, Policy::Server::average}) {
    // Worker 1's fifth pull, in every schedule that hands out work as workers come free.
    const Scenario& pull = *scenario_table().find("pull-failure");
    BOOST_TEST((simulate(pull, pull_based(pull, server)).failures.at(0).at == At::pull));
    // Worker 3 holds the last mini-batch anyone holds: the pool is dry, the others idle.
    const Scenario& late = *scenario_table().find("late-failure");
    const Outcome o = simulate(late, pull_based(late, server));
    BOOST_TEST((o.failures.at(0).at == At::compute));
    BOOST_TEST(o.failures.at(0).pool == 0u);
    BOOST_TEST(o.failures.at(0).others_busy == 0);
  }
  // Kept off the last mini-batches, worker 3 holds nothing when it fails.
  const Scenario& late = *scenario_table().find("late-failure");
  BOOST_TEST((simulate(late, best_known(late).policy).failures.at(0).at == At::idle));
  // Pushes one at a time: gradients within the bound when ready are over it when their turn
  // comes.
  const Scenario& crowded = *scenario_table().find("many-staleness");
  BOOST_TEST(simulate(crowded, pull_based(crowded)).crossed > 0);
}

BOOST_AUTO_TEST_CASE(with_free_pull_and_apply_the_classic_figures_come_back) {
  Scenario d = *scenario_table().find("default");
  d.pull_ms = d.apply_ms = 0;
  BOOST_TEST(baseline_ms(d) == 4800);
  BOOST_TEST(lower_bound(d).ms == 1280);  // 240 / (1/10 + 1/20 + 1/40 + 1/80)
  BOOST_TEST(simulate(d, pull_based(d)).makespan_ms == 1280);
  d.staleness_bound = 4;
  Policy two = pull_based(d);
  two.team = 2;
  BOOST_TEST(simulate(d, two).makespan_ms == 1600);  // the two fastest alone
  Scenario many = *scenario_table().find("many-workers");
  many.pull_ms = many.apply_ms = 0;
  BOOST_TEST(simulate(many, pull_based(many)).makespan_ms == 1520);  // the tail over 1488
}

BOOST_AUTO_TEST_CASE(generated_scenarios_stay_within_the_briefs_ranges_and_their_figures_hold) {
  using Clock = std::chrono::steady_clock;
  double slowest_ms = 0, total_ms = 0;
  int count = 0;
  for (std::uint64_t seed = 1; seed <= 50; ++seed) {
    for (int k = 0; k < 4; ++k) {
      const auto start = Clock::now();
      const Scenario s = World::generate(seed, k);
      const auto facts = World::facts(s);
      const double took = std::chrono::duration<double, std::milli>(Clock::now() - start).count();
      slowest_ms = std::max(slowest_ms, took);
      total_ms += took;
      ++count;
      BOOST_TEST_CONTEXT(s.name << ": " << s.description) {
        BOOST_TEST(s.name == overlap::worlds::generated_name(seed, k));
        BOOST_TEST(s.description.find('\n') == std::string::npos);
        BOOST_TEST(s.workers() >= 2);
        BOOST_TEST(s.workers() <= 32);
        for (double t : s.worker_ms) {
          BOOST_TEST(t >= 5);
          BOOST_TEST(t <= 100);
        }
        BOOST_TEST(s.mini_batches <= 2048);
        BOOST_TEST(
            (s.staleness_bound == -1 || (s.staleness_bound >= 2 && s.staleness_bound <= 32)));
        BOOST_TEST(s.failures.size() <= 2u);
        std::set<int> failing;
        for (const Failure& f : s.failures) failing.insert(f.worker);
        BOOST_TEST(failing.size() == s.failures.size());
        // The figures: the bound below the best known, the best known well below the starter,
        // which survives the scenario; and the name replays it.
        BOOST_TEST(facts.bound.ms <= facts.best_known_ms);
        BOOST_TEST(facts.best_known_ms <= 0.8 * facts.baseline_ms);
        BOOST_TEST(starter_survives(s));
        BOOST_TEST(best_known(s).ms == s.best_known_ms);
        BOOST_TEST(World::generate(seed, k).description == s.description);
      }
    }
  }
  BOOST_TEST_MESSAGE("param-server: generate + facts, mean " << total_ms / count << " ms, slowest "
                                                             << slowest_ms << " ms");
}

// seed-11-3 (19 workers, a staleness bound): averaging once three gradients wait, with the
// slowest worker left out and a too stale gradient recomputed, beats every policy of the narrow
// search (2539.388 ms, which it was drawn on) and a correct program's 2364.26 ms. No program of
// the kit plans that search: it is the scenario's hindsight figure.
BOOST_AUTO_TEST_CASE(averaging_a_quorum_beats_the_narrow_families) {
  const Scenario s = World::generate(11, 3);
  BOOST_TEST(s.workers() == 19);
  const Found narrow = search(s, Breadth::narrow);
  const Found wide = search(s, Breadth::wide);
  BOOST_TEST(std::abs(narrow.ms - 2539.388) < 1e-6);
  BOOST_TEST(wide.ms == s.hindsight_ms);
  BOOST_TEST(wide.ms < s.best_known_ms);
  BOOST_TEST(wide.ms <= 2364.26);
  BOOST_TEST(wide.policy.quorum == 3);
  BOOST_TEST(wide.policy.team < s.workers());
  BOOST_TEST((wide.policy.stale == Policy::Stale::recompute));
  BOOST_TEST(simulate(s, wide.policy).makespan_ms == wide.ms);
  BOOST_TEST(best_known(s).note.find("in hindsight") != std::string::npos);
  BOOST_TEST(best_known(s).note.find("once 3 wait") != std::string::npos);
  // The same policy retiring the worker of a too stale gradient instead: slower.
  Policy retire = wide.policy;
  retire.stale = Policy::Stale::retire;
  BOOST_TEST(simulate(s, retire).makespan_ms > wide.ms);
}

// jitter: the last mini-batches planned on the actual draws (1339.082 ms) beat the kit's rules,
// which know only the means (1351.844 ms, the reference's makespan). The best known is the
// latter; the former is the scenario's hindsight figure, and its note says what it knows.
BOOST_AUTO_TEST_CASE(planning_on_the_actual_draws_is_hindsight) {
  Scenario s = *scenario_table().find("jitter");
  s.best_known_ms = s.hindsight_ms = 0;  // planned here
  const Plan plan = best_known(s);
  BOOST_TEST(plan.ms == 1351.844, boost::test_tools::tolerance(1e-9));
  BOOST_TEST((plan.policy.end_game != Policy::EndGame::actual));
  BOOST_TEST(plan.hindsight_ms == 1339.082, boost::test_tools::tolerance(1e-9));
  BOOST_TEST((plan.hindsight_policy.end_game == Policy::EndGame::actual));
  BOOST_TEST(simulate(s, plan.hindsight_policy).makespan_ms == plan.hindsight_ms);
  const overlap::worlds::ScenarioFacts facts = World::facts(*scenario_table().find("jitter"));
  BOOST_TEST(facts.best_known_ms == 1351.844, boost::test_tools::tolerance(1e-9));
  BOOST_TEST(facts.hindsight_ms == 1339.082, boost::test_tools::tolerance(1e-9));
  BOOST_TEST(facts.hindsight_note.find("knowing each compute's actual time") != std::string::npos,
             facts.hindsight_note);
  // Where nothing varies or fails, the search knows nothing a program is not told: its note
  // says only that no program of the kit plans that way (default: 1470 ms, on the bound, against
  // the reference's 1476).
  const overlap::worlds::ScenarioFacts d = World::facts(*scenario_table().find("default"));
  BOOST_TEST(d.best_known_ms == 1476);
  BOOST_TEST(d.hindsight_ms == 1470);
  BOOST_TEST(d.hindsight_note.find("no program of the kit plans that way") != std::string::npos,
             d.hindsight_note);
  BOOST_TEST(World::facts(*scenario_table().find("worker-failure")).hindsight_ms == 0);
}

// One average per speed group on a team of the fastest workers is searched. With speeds drawn
// apart, a group is one worker, and it ties averaging whatever waits (seed-80-0, where it is the
// first policy found at the search's best). The makespans of the team within twice the fastest's
// speed are those tests/param-server/designs/group_average.cmake pins for that program.
BOOST_AUTO_TEST_CASE(averaging_per_speed_group_is_searched) {
  const Scenario s = World::generate(80, 0);
  const Found found = search(s, Breadth::wide);
  BOOST_TEST((found.policy.server == Policy::Server::group));
  BOOST_TEST(simulate(s, found.policy).makespan_ms == found.ms);
  BOOST_TEST(describe(s, found.policy).find("each speed group") != std::string::npos);
  Policy any = found.policy;
  any.server = Policy::Server::average;
  BOOST_TEST(simulate(s, any).makespan_ms == found.ms);

  const auto grouped = [](const std::string& name, int team) {
    Policy p;
    p.team = team;
    p.server = Policy::Server::group;
    return simulate(*scenario_table().find(name), p).makespan_ms;
  };
  BOOST_TEST(grouped("default", 2) == 1870);          // 10 and 20 ms
  BOOST_TEST(grouped("many-workers", 12) == 2644.5);  // four each at 10, 15 and 20 ms
  BOOST_TEST(grouped("worker-failure", 2) == 4686);
}

// The best known is the best of the kit's rules, and each rule is a program of the kit that the
// judge grades within 2 % of the planner's makespan, mostly exactly; on the named scenarios: the
// reference (expected.cmake), the styles (styles/per_device.cmake: late-failure 1495), the
// recomputing variants never_retire (guide.cmake) and push_recompute (tests.cmake: many-staleness
// 4647), and group_average (designs/group_average.cmake).
BOOST_AUTO_TEST_CASE(the_best_known_is_the_best_of_the_kits_rules) {
  const auto makespans = [](const char* program) {
    std::string out;
    for (const Scenario& s : scenario_table().scenarios()) {
      for (const KitRule& rule : kit_rules(s)) {
        if (std::string(rule.program) != program) continue;
        out += fmt::format("{}{}={}", out.empty() ? "" : ",", s.name,
                           simulate(s, rule.policy).makespan_ms);
      }
    }
    return out;
  };
  BOOST_TEST(makespans("the reference") ==
             "default=1476,jitter=1351.844,worker-failure=2624,tight-staleness=1656,"
             "many-workers=1634,pull-failure=1980,late-failure=1476,many-staleness=1925.5");
  BOOST_TEST(makespans("the styles") ==
             "default=1476,jitter=1352.747,worker-failure=2624,tight-staleness=1870,"
             "many-workers=1715.5,pull-failure=2050,late-failure=1485,many-staleness=5877");
  BOOST_TEST(makespans("the styles' variant push_recompute") ==
             "tight-staleness=1875,many-staleness=4569.5");
  BOOST_TEST(makespans("designs/group_average") ==
             "default=1870,jitter=1830.239,worker-failure=4686,tight-staleness=1870,"
             "many-workers=2644.5,pull-failure=2832,late-failure=1870,many-staleness=2644.5");
  // Recomputing instead of retiring: the fix for stretch-fastest-fails, and its best known.
  const Scenario& fails = *scenario_table().find("stretch-fastest-fails");
  const Plan plan = best_known(fails);
  BOOST_TEST(plan.ms == 2556);
  BOOST_TEST(plan.note.find("variant never_retire") != std::string::npos, plan.note);
  BOOST_TEST((plan.policy.stale == Policy::Stale::recompute));
  // The reference's rule there: 2842 ms, as the reference is graded (expected.cmake).
  BOOST_TEST(simulate(fails, kit_rules(fails).front().policy).makespan_ms == 2842);
}

BOOST_AUTO_TEST_SUITE_END()
