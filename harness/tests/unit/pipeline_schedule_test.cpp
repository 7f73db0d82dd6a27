// The pipeline scenarios' figures, checked against an independent schedule simulation (plain
// list scheduling of per-stage operation orders, no Asio, no simulator).
#include <algorithm>
#include <boost/test/unit_test.hpp>
#include <vector>

#include "../../worlds/pipeline/scenarios.hpp"

using namespace overlap::pipeline;

namespace {

struct Op {
  bool forward;
  int mb;
};

struct Schedule {
  double makespan = 0;
  std::vector<int> peak_stashes;
};

// Runs each stage's operations in the given order, each as early as its stage and its input
// allow: forward(s, mb) after forward(s-1, mb); backward(s, mb) after backward(s+1, mb), or
// after forward(s, mb) on the last stage.
Schedule simulate(const std::vector<double>& f, const std::vector<double>& b, int m,
                  const std::vector<std::vector<Op>>& order) {
  const int p = static_cast<int>(f.size());
  std::vector<std::vector<double>> f_end(p, std::vector<double>(m, -1));
  std::vector<std::vector<double>> b_end(p, std::vector<double>(m, -1));
  std::vector<std::size_t> next(p, 0);
  std::vector<double> free_at(p, 0);
  Schedule out;
  out.peak_stashes.assign(p, 0);
  std::vector<std::vector<std::pair<double, int>>> stash_events(p);
  bool progress = true;
  while (progress) {
    progress = false;
    for (int s = 0; s < p; ++s) {
      while (next[s] < order[s].size()) {
        const Op op = order[s][next[s]];
        double ready;
        if (op.forward) {
          ready = s == 0 ? 0 : f_end[s - 1][op.mb];
        } else {
          ready = s == p - 1 ? f_end[s][op.mb] : b_end[s + 1][op.mb];
        }
        if (ready < 0) break;
        const double start = std::max(ready, free_at[s]);
        const double end = start + (op.forward ? f[s] : b[s]);
        (op.forward ? f_end : b_end)[s][op.mb] = end;
        free_at[s] = end;
        out.makespan = std::max(out.makespan, end);
        stash_events[s].push_back(op.forward ? std::make_pair(start, +1) : std::make_pair(end, -1));
        ++next[s];
        progress = true;
      }
    }
  }
  for (int s = 0; s < p; ++s) {
    BOOST_REQUIRE_MESSAGE(next[s] == order[s].size(), "the schedule deadlocks");
    std::sort(stash_events[s].begin(), stash_events[s].end());  // releases first at a tie
    int held = 0;
    for (auto [t, d] : stash_events[s])
      out.peak_stashes[s] = std::max(out.peak_stashes[s], held += d);
  }
  return out;
}

std::vector<std::vector<Op>> one_f_one_b(int p, int m) {
  std::vector<std::vector<Op>> order(p);
  for (int s = 0; s < p; ++s) {
    int fw = 0, bw = 0;
    const int warmup = std::min(p - s - 1, m);
    while (fw < warmup) order[s].push_back({true, fw++});
    while (fw < m) order[s].push_back({true, fw++}), order[s].push_back({false, bw++});
    while (bw < m) order[s].push_back({false, bw++});
  }
  return order;
}

std::vector<std::vector<Op>> gpipe(int p, int m) {
  std::vector<std::vector<Op>> order(p);
  for (int s = 0; s < p; ++s) {
    for (int i = 0; i < m; ++i) order[s].push_back({true, i});
    for (int i = 0; i < m; ++i) order[s].push_back({false, i});
  }
  return order;
}

}  // namespace

BOOST_AUTO_TEST_SUITE(pipeline_schedule)

BOOST_AUTO_TEST_CASE(one_f_one_b_reaches_every_scenarios_stated_optimum_within_budget) {
  for (const Scenario& sc : scenarios()) {
    BOOST_TEST_CONTEXT(sc.name) {
      const Schedule run = simulate(sc.forward_ms, sc.backward_ms, sc.micro_batches,
                                    one_f_one_b(sc.stages(), sc.micro_batches));
      BOOST_TEST(run.makespan == sc.optimum_step_ms);
      BOOST_TEST(lower_bound(sc).ms == sc.optimum_step_ms);  // the bound is tight here
      for (int s = 0; s < sc.stages(); ++s) {
        BOOST_TEST(run.peak_stashes[s] == sc.stages() - s);
        BOOST_TEST(run.peak_stashes[s] <= sc.stashes[s]);
      }
    }
  }
}

BOOST_AUTO_TEST_CASE(the_figures_the_brief_states) {
  const Scenario& d = *find_scenario("default");
  BOOST_TEST(baseline_step_ms(d) == 960);
  BOOST_TEST(lower_bound(d).ms == 330);
  BOOST_TEST(baseline_step_ms(*find_scenario("imbalanced")) == 1080);
  BOOST_TEST(lower_bound(*find_scenario("imbalanced")).ms == 450);
  BOOST_TEST(baseline_step_ms(*find_scenario("deep")) == 7680);
  BOOST_TEST(lower_bound(*find_scenario("deep")).ms == 1170);
  BOOST_TEST(baseline_step_ms(*find_scenario("two-stage")) == 480);
  BOOST_TEST(lower_bound(*find_scenario("two-stage")).ms == 270);
}

BOOST_AUTO_TEST_CASE(gpipe_matches_one_f_one_b_in_time_but_needs_m_stashes) {
  const Scenario& d = *find_scenario("default");
  const Schedule run = simulate(d.forward_ms, d.backward_ms, 8, gpipe(4, 8));
  BOOST_TEST(run.makespan == 330);
  BOOST_TEST(run.peak_stashes[0] == 8);  // over the default budget of 4
}

BOOST_AUTO_TEST_CASE(the_closed_form_bound_is_not_tight_when_the_slowest_stage_is_first) {
  Scenario slow_first = *find_scenario("default");
  slow_first.forward_ms = {15, 10, 10, 10};
  slow_first.backward_ms = {30, 20, 20, 20};
  BOOST_TEST(lower_bound(slow_first).ms == 360);
  BOOST_TEST(
      simulate(slow_first.forward_ms, slow_first.backward_ms, 8, one_f_one_b(4, 8)).makespan ==
      405);
  // GPipe: Σ(f+b) + (m-1)(max f + max b)
  BOOST_TEST(simulate(slow_first.forward_ms, slow_first.backward_ms, 8, gpipe(4, 8)).makespan ==
             45 + 90 + 7 * 45);
}

BOOST_AUTO_TEST_CASE(with_enough_stashes_on_stage_0_the_slowest_first_bound_is_reached) {
  // Stage 0 runs all its forwards first (8 stashes), the others 1F1B: 360 ms, the bound.
  const std::vector<double> f{15, 10, 10, 10}, b{30, 20, 20, 20};
  std::vector<std::vector<Op>> order = one_f_one_b(4, 8);
  order[0] = gpipe(4, 8)[0];
  const Schedule run = simulate(f, b, 8, order);
  BOOST_TEST(run.makespan == 360);
  BOOST_TEST(run.peak_stashes[0] == 8);
}

BOOST_AUTO_TEST_CASE(a_small_stash_budget_raises_the_bound_by_littles_law) {
  Scenario tight = *find_scenario("default");
  tight.stashes = {2, 2, 2, 2};
  // Stage 0: a stash lives >= 120 ms; 2 stashes serve 8 micro-batches in >= 4 x 120 ms.
  BOOST_TEST(lower_bound(tight).ms == 480);
}

BOOST_AUTO_TEST_SUITE_END()
