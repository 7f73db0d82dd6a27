// The pipeline scenarios' figures: the planner's schedules (worlds/pipeline/planner.hpp) against
// the published figures, the lower bound and each other, and the generated scenarios against the
// ranges the brief promises.
#include <boost/test/unit_test.hpp>
#include <set>
#include <string>
#include <vector>

#include "../../worlds/common/generated.hpp"
#include "../../worlds/pipeline/planner.hpp"
#include "../../worlds/pipeline/scenarios.hpp"
#include "../../worlds/pipeline/world.hpp"

using namespace overlap;
using namespace overlap::pipeline;

namespace {

std::vector<int> classic_warmup(int p) {
  std::vector<int> w;
  for (int s = 0; s < p; ++s) w.push_back(p - s - 1);
  return w;
}

double step_ms(const planner::Step& step) { return sim::to_ms(step.makespan); }

// The default scenario with other times and budgets.
Scenario variant(std::vector<double> f, std::vector<double> b, std::vector<int> stashes) {
  Scenario s = *scenario_table().find("default");
  s.forward_ms = std::move(f);
  s.backward_ms = std::move(b);
  s.stashes = std::move(stashes);
  return s;
}

int slowest_stage(const Scenario& s) {
  int slowest = 0;
  for (int i = 1; i < s.stages(); ++i) {
    if (s.forward_ms[i] + s.backward_ms[i] > s.forward_ms[slowest] + s.backward_ms[slowest]) {
      slowest = i;
    }
  }
  return slowest;
}

}  // namespace

BOOST_AUTO_TEST_SUITE(pipeline_schedule)

BOOST_AUTO_TEST_CASE(the_planner_reaches_every_named_scenarios_published_figure) {
  for (const Scenario& sc : scenario_table().scenarios()) {
    BOOST_TEST_CONTEXT(sc.name) {
      BOOST_TEST(sim::to_ms(planner::best_known(sc).step) == sc.best_known_step_ms);
      BOOST_TEST(lower_bound(sc).ms == sc.best_known_step_ms);  // the bound is tight here
      const planner::Step run =
          planner::run_orders(sc, planner::one_f_one_b(sc, classic_warmup(sc.stages())));
      BOOST_TEST(step_ms(run) == sc.best_known_step_ms);
      for (int s = 0; s < sc.stages(); ++s) {
        BOOST_TEST(run.peak_stashes[s] == sc.stages() - s);
        BOOST_TEST(run.peak_stashes[s] <= sc.stashes[s]);
      }
    }
  }
}

BOOST_AUTO_TEST_CASE(the_figures_the_brief_states) {
  const Scenario& d = *scenario_table().find("default");
  BOOST_TEST(baseline_step_ms(d) == 960);
  BOOST_TEST(lower_bound(d).ms == 330);
  BOOST_TEST(baseline_step_ms(*scenario_table().find("imbalanced")) == 1080);
  BOOST_TEST(lower_bound(*scenario_table().find("imbalanced")).ms == 450);
  BOOST_TEST(baseline_step_ms(*scenario_table().find("deep")) == 7680);
  BOOST_TEST(lower_bound(*scenario_table().find("deep")).ms == 1170);
  BOOST_TEST(baseline_step_ms(*scenario_table().find("two-stage")) == 480);
  BOOST_TEST(lower_bound(*scenario_table().find("two-stage")).ms == 270);
}

BOOST_AUTO_TEST_CASE(gpipe_matches_one_f_one_b_in_time_but_needs_m_stashes) {
  Scenario roomy = *scenario_table().find("default");
  roomy.stashes.assign(4, 8);
  const planner::Step run = planner::run_orders(roomy, planner::gpipe_waves(roomy, 8));
  BOOST_TEST(step_ms(run) == 330);
  BOOST_TEST(run.peak_stashes[0] == 8);
  // Within the default budget of 4 it is no schedule at all.
  const Scenario& d = *scenario_table().find("default");
  BOOST_TEST(planner::run_orders(d, planner::gpipe_waves(d, 8)).makespan == -1);
  // In waves of 4 it fits, and drains the pipeline between the waves.
  BOOST_TEST(step_ms(planner::run_orders(d, planner::gpipe_waves(d, 4))) > 330);
}

BOOST_AUTO_TEST_CASE(the_closed_form_bound_is_not_tight_when_the_slowest_stage_is_first) {
  const Scenario slow_first = variant({15, 10, 10, 10}, {30, 20, 20, 20}, {8, 8, 8, 8});
  BOOST_TEST(lower_bound(slow_first).ms == 360);
  BOOST_TEST(step_ms(planner::run_orders(
                 slow_first, planner::one_f_one_b(slow_first, classic_warmup(4)))) == 405);
  // GPipe: Σ(f+b) + (m-1)(max f + max b)
  BOOST_TEST(step_ms(planner::run_orders(slow_first, planner::gpipe_waves(slow_first, 8))) ==
             45 + 90 + 7 * 45);
}

BOOST_AUTO_TEST_CASE(with_enough_stashes_on_stage_0_the_slowest_first_bound_is_reached) {
  // Stage 0 runs all its forwards first (8 stashes), the others 1F1B: 360 ms, the bound.
  const Scenario slow_first = variant({15, 10, 10, 10}, {30, 20, 20, 20}, {8, 8, 8, 8});
  planner::Orders orders = planner::one_f_one_b(slow_first, classic_warmup(4));
  orders[0] = planner::gpipe_waves(slow_first, 8)[0];
  const planner::Step run = planner::run_orders(slow_first, orders);
  BOOST_TEST(step_ms(run) == 360);
  BOOST_TEST(run.peak_stashes[0] == 8);
  BOOST_TEST(sim::to_ms(planner::best_known(slow_first).step) == 360);
  // With 4 stashes a stage, the best known lies between the bound and 1F1B's 405.
  const Scenario tight = variant({15, 10, 10, 10}, {30, 20, 20, 20}, {4, 4, 4, 4});
  const double best = sim::to_ms(planner::best_known(tight).step);
  BOOST_TEST(best >= 360);
  BOOST_TEST(best <= 405);
}

BOOST_AUTO_TEST_CASE(a_small_stash_budget_raises_the_bound_by_littles_law) {
  const Scenario tight = variant({10, 10, 10, 10}, {20, 20, 20, 20}, {2, 2, 2, 2});
  // Stage 0: a stash lives >= 120 ms; 2 stashes serve 8 micro-batches in >= 4 x 120 ms.
  BOOST_TEST(lower_bound(tight).ms == 480);
}

BOOST_AUTO_TEST_CASE(orders_over_budget_or_out_of_order_are_no_schedule) {
  const Scenario& d = *scenario_table().find("default");
  planner::Orders orders = planner::one_f_one_b(d, classic_warmup(4));
  std::swap(orders[3][0], orders[3][1]);  // a backward before its forward
  BOOST_TEST(planner::run_orders(d, orders).makespan == -1);
  // Warm-ups that do not shrink by one a stage deadlock: stage 0 waits for a gradient that
  // stage 1 cannot start.
  BOOST_TEST(planner::run_orders(d, planner::one_f_one_b(d, {0, 2, 1, 0})).makespan == -1);
}

BOOST_AUTO_TEST_CASE(a_self_timed_run_replays_as_fixed_orders) {
  // Two independent computations of one schedule: the event loop that chose it, and list
  // scheduling of the orders it chose.
  for (int seed = 1; seed <= 10; ++seed) {
    for (int k = 0; k < 4; ++k) {
      const Scenario sc = World::generate(seed, k);
      for (planner::Rule rule : {planner::Rule::alternate, planner::Rule::backward_first,
                                 planner::Rule::forward_first, planner::Rule::oldest_first}) {
        const planner::Step timed = planner::run_self_timed(sc, rule, sc.stashes);
        BOOST_TEST_CONTEXT(sc.name << ", rule " << static_cast<int>(rule)) {
          BOOST_TEST(timed.makespan > 0);
          BOOST_TEST(planner::run_orders(sc, timed.orders).makespan == timed.makespan);
          for (int s = 0; s < sc.stages(); ++s) BOOST_TEST(timed.peak_stashes[s] <= sc.stashes[s]);
        }
      }
    }
  }
}

BOOST_AUTO_TEST_CASE(the_best_known_is_never_below_the_bound_nor_above_1f1b) {
  for (int seed = 1; seed <= 60; ++seed) {
    for (int k = 0; k < 4; ++k) {
      const Scenario sc = World::generate(seed, k);
      BOOST_TEST_CONTEXT(sc.name) {
        const sim::Time best = sim::from_ms(sc.best_known_step_ms);
        BOOST_TEST(best == planner::best_known(sc).step);
        BOOST_TEST(best >= sim::from_ms(lower_bound(sc).ms));
        BOOST_TEST(best <=
                   planner::run_orders(sc, planner::one_f_one_b(sc, classic_warmup(sc.stages())))
                       .makespan);
        BOOST_TEST(!sc.best_known_note.empty());
      }
    }
  }
}

BOOST_AUTO_TEST_CASE(an_exhaustive_search_is_no_worse_than_any_family_where_it_runs) {
  // Two stages, four micro-batches: every interleaving is tried.
  const Scenario small = variant({7.301, 12.977}, {15.119, 20.46}, {3, 1});
  Scenario sc = small;
  sc.micro_batches = 4;
  const sim::Time best = planner::best_known(sc).step;
  BOOST_TEST(best <= planner::run_orders(sc, planner::one_f_one_b(sc, {1, 0})).makespan);
  BOOST_TEST(best <= planner::run_orders(sc, planner::gpipe_waves(sc, 1)).makespan);
  BOOST_TEST(best >= sim::from_ms(lower_bound(sc).ms));
}

BOOST_AUTO_TEST_CASE(generated_scenarios_stay_within_the_briefs_ranges) {
  for (int seed = 1; seed <= 60; ++seed) {
    for (int k = 0; k < 4; ++k) {
      const Scenario sc = World::generate(seed, k);
      BOOST_TEST_CONTEXT(sc.name) {
        const int p = sc.stages(), m = sc.micro_batches;
        BOOST_TEST(sc.name == worlds::generated_name(seed, k));
        BOOST_TEST(sc.description.find('\n') == std::string::npos);
        BOOST_TEST((p >= 2 && p <= 8));
        BOOST_TEST((m >= p && m <= 4 * p));
        BOOST_TEST(sc.steps == 3);
        BOOST_TEST(sc.optimizer_ms == 0);
        bool gpipe_fits = true;
        for (int s = 0; s < p; ++s) {
          BOOST_TEST((sc.forward_ms[s] >= 5 && sc.forward_ms[s] <= 20));
          BOOST_TEST(sc.backward_ms[s] >= 1.5 * sc.forward_ms[s]);
          BOOST_TEST(sc.backward_ms[s] <= 2.5 * sc.forward_ms[s]);
          // Whole microseconds.
          BOOST_TEST(sim::to_ms(sim::from_ms(sc.forward_ms[s])) == sc.forward_ms[s]);
          BOOST_TEST(sim::to_ms(sim::from_ms(sc.backward_ms[s])) == sc.backward_ms[s]);
          BOOST_TEST(sc.stashes[s] >= p - s);  // room for 1F1B
          gpipe_fits = gpipe_fits && sc.stashes[s] >= m;
        }
        BOOST_TEST(!gpipe_fits);
        // At least 20 % to gain over the starter.
        BOOST_TEST(5 * sim::from_ms(sc.best_known_step_ms) <= 4 * baseline_step(sc));
        // The slowest stage where scenario k's family puts it.
        const int slowest = slowest_stage(sc);
        switch (k % 4) {
          case 0:
            BOOST_TEST(slowest == 0);
            break;
          case 1:
            BOOST_TEST((slowest > 0 && slowest < p - 1));
            break;
          case 2:
            BOOST_TEST(slowest == p - 1);
            break;
          case 3:
            BOOST_TEST(p >= 4);
            break;
        }
      }
    }
  }
}

BOOST_AUTO_TEST_CASE(generated_scenarios_replay_from_their_names) {
  const Scenario a = World::generate(7, 5);
  const Scenario b = World::generate(7, 5);
  BOOST_TEST(a.description == b.description);
  BOOST_TEST(a.best_known_step_ms == b.best_known_step_ms);
  BOOST_TEST(a.seed == b.seed);
  std::set<std::string> seen;
  for (int k = 0; k < 8; ++k) seen.insert(World::generate(7, k).description);
  BOOST_TEST(seen.size() == 8u);
}

BOOST_AUTO_TEST_CASE(facts_are_whole_runs_in_exact_microseconds) {
  for (int k = 0; k < 4; ++k) {
    const Scenario sc = World::generate(3, k);
    const worlds::ScenarioFacts facts = World::facts(sc);
    BOOST_TEST(facts.baseline_ms == sim::to_ms(3 * baseline_step(sc)));
    BOOST_TEST(facts.best_known_ms == sim::to_ms(3 * sim::from_ms(sc.best_known_step_ms)));
    BOOST_TEST(facts.bound.ms <= facts.best_known_ms);
    BOOST_TEST(facts.best_known_ms < facts.baseline_ms);
    BOOST_TEST(World::parameters(sc).size() == 6u);
  }
}

BOOST_AUTO_TEST_SUITE_END()
