// The parameter-server scenarios' figures, checked against an independent simulation of
// pull-based schedules (an event queue of its own, no Asio, no simulator).
#include <algorithm>
#include <boost/test/unit_test.hpp>
#include <deque>
#include <map>
#include <set>
#include <tuple>
#include <vector>

#include "../../worlds/param-server/scenarios.hpp"

using namespace overlap::param_server;

namespace {

// Workers in `team` loop: take the next mini-batch from a FIFO pool, pull, compute, then queue
// for the server (first come, first served) and push. A worker that fails hands its mini-batch
// back and stops; so does one whose gradient would be applied over the staleness bound, unless
// it is the last one working (then it recomputes). Returns the makespan, or -1 if the work
// cannot finish.
double pull_based(const Scenario& s, const std::set<int>& team) {
  enum Phase { take, pulled, computed };
  // (time, sequence) -> (worker, phase): ties in the order events were made.
  std::map<std::pair<double, int>, std::pair<int, Phase>> events;
  int sequence = 0;
  auto at = [&](double t, int w, Phase p) { events[{t, sequence++}] = {w, p}; };

  std::deque<int> pool;
  for (int mb = 0; mb < s.mini_batches; ++mb) pool.push_back(mb);
  std::vector<int> holding(s.workers(), -1), pulled_version(s.workers(), 0),
      computes(s.workers(), 0);
  std::vector<bool> idle(s.workers(), false);
  int working = static_cast<int>(team.size()), applied = 0, version = 0;
  double server_free = 0, makespan = 0;
  auto stop = [&](int w) {
    pool.push_back(holding[w]);
    --working;
    for (int other : team) {
      if (idle[other])
        idle[other] = false, at(events.empty() ? 0 : events.begin()->first.first, other, take);
    }
  };
  for (int w : team) at(0, w, take);
  while (!events.empty()) {
    const auto [key, value] = *events.begin();
    events.erase(events.begin());
    const double now = key.first;
    const auto [w, phase] = value;
    const bool fails = w == s.failing_worker;
    if (phase == take) {
      if (pool.empty()) {
        idle[w] = true;
        continue;
      }
      holding[w] = pool.front();
      pool.pop_front();
      if (fails && s.fail_ms <= now + s.pull_ms) {
        stop(w);
        continue;
      }
      pulled_version[w] = version;
      at(now + s.pull_ms, w, pulled);
    } else if (phase == pulled) {
      const double end = now + compute_ms(s, w, computes[w]++);
      if (fails && s.fail_ms <= end) {
        at(s.fail_ms, w, computed), holding[w] = -holding[w] - 2;  // marks the failure
        continue;
      }
      at(end, w, computed);
    } else {
      if (holding[w] < -1) {  // failed during the compute
        holding[w] = -holding[w] - 2;
        stop(w);
        continue;
      }
      const double start = std::max(now, server_free);
      // Versions at `start`: every earlier push has been applied by then (one at a time).
      const int version_at_start = applied;
      if (s.staleness_bound >= 0 && version_at_start - pulled_version[w] > s.staleness_bound) {
        if (working > 1) {
          stop(w);
        } else {
          pool.push_back(holding[w]);
          at(now, w, take);
        }
        continue;
      }
      server_free = start + s.apply_ms;
      ++applied;
      version = applied;  // later pulls see it: applies never overlap, so only order matters
      makespan = std::max(makespan, server_free);
      at(server_free, w, take);
    }
  }
  return applied == s.mini_batches ? makespan : -1;
}

}  // namespace

BOOST_AUTO_TEST_SUITE(param_server_schedule)

std::set<int> fastest(int k) {
  std::set<int> team;
  for (int w = 0; w < k; ++w) team.insert(w);
  return team;
}

// The best of the schedules above: every worker, or only the k fastest (workers are listed
// fastest first in every scenario).
double best_known(const Scenario& s) {
  double best = -1;
  for (int k = 1; k <= s.workers(); ++k) {
    const double t = pull_based(s, fastest(k));
    if (t > 0 && (best < 0 || t < best)) best = t;
  }
  return best;
}

BOOST_AUTO_TEST_CASE(every_scenario_states_the_best_known_schedule_and_a_bound_below_it) {
  for (const Scenario& s : scenarios()) {
    BOOST_TEST_CONTEXT(s.name) {
      BOOST_TEST(s.optimum_ms == best_known(s), boost::test_tools::tolerance(1e-9));
      BOOST_TEST(lower_bound(s).ms <= s.optimum_ms);
      // Every scenario leaves synchronous rounds well short of the optimum.
      BOOST_TEST(baseline_ms(s) > 1.3 * s.optimum_ms);
    }
  }
}

BOOST_AUTO_TEST_CASE(the_figures_the_brief_states) {
  const Scenario& d = *find_scenario("default");
  BOOST_TEST(baseline_ms(d) == 60 * (1 + 80 + 1));
  BOOST_TEST(lower_bound(d).ms == 1470);
  BOOST_TEST(pull_based(d, fastest(4)) == 1476);
  // With a staleness bound of 4 the slow workers only get in the way.
  const Scenario& tight = *find_scenario("tight-staleness");
  BOOST_TEST(pull_based(tight, fastest(2)) == 1870);
  BOOST_TEST(pull_based(tight, fastest(3)) == 1870);  // the third retires after one stale try
  // A failure takes capacity away: the bound counts worker 0 only until it fails.
  BOOST_TEST(lower_bound(*find_scenario("worker-failure")).ms == 2624);
  // Many workers: the server (0.5 ms a push) is not the bottleneck, the workers are.
  const Scenario& many = *find_scenario("many-workers");
  BOOST_TEST(lower_bound(many).ms > many.mini_batches * many.apply_ms);
}

BOOST_AUTO_TEST_CASE(with_free_pull_and_apply_the_classic_figures_come_back) {
  Scenario d = *find_scenario("default");
  d.pull_ms = d.apply_ms = 0;
  BOOST_TEST(baseline_ms(d) == 4800);
  BOOST_TEST(lower_bound(d).ms == 1280);  // 240 / (1/10 + 1/20 + 1/40 + 1/80)
  BOOST_TEST(pull_based(d, fastest(4)) == 1280);
  d.staleness_bound = 4;
  BOOST_TEST(pull_based(d, fastest(2)) == 1600);  // the two fastest alone
  Scenario many = *find_scenario("many-workers");
  many.pull_ms = many.apply_ms = 0;
  BOOST_TEST(pull_based(many, fastest(32)) == 1520);  // the tail over the bound of 1488
}

BOOST_AUTO_TEST_SUITE_END()
