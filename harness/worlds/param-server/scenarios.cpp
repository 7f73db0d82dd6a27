#include "scenarios.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <deque>

#include "../common/random.hpp"
#include "../common/scenario_list.hpp"

namespace overlap::param_server {

namespace {

std::vector<double> many_workers() {
  std::vector<double> out;
  for (double t : {10, 15, 20, 25, 30, 40, 60, 80}) out.insert(out.end(), 4, t);
  return out;
}

std::vector<Scenario> make_scenarios() {
  std::vector<Scenario> all;
  Scenario s;
  s.name = "default";
  s.description =
      "4 workers at 10, 20, 40, 80 ms per gradient, pull 1 ms, apply 1 ms, 240 "
      "mini-batches, no staleness bound";
  s.worker_ms = {10, 20, 40, 80};
  s.seed = 21;
  s.optimum_ms = 1476;
  s.optimum_note = "every worker busy until the pool is empty, pushes one at a time";
  all.push_back(s);

  s = Scenario{};
  s.name = "jitter";
  s.description =
      "4 workers at 20 ms per gradient on average, each gradient between 5 and 35 "
      "ms (seeded), pull 1 ms, apply 1 ms, 240 mini-batches";
  s.worker_ms = {20, 20, 20, 20};
  s.jitter = 0.75;
  s.seed = 22;
  s.optimum_ms = 1352.747;
  s.optimum_note = "every worker busy until the pool is empty: nobody waits for the slowest draw";
  all.push_back(s);

  s = Scenario{};
  s.name = "worker-failure";
  s.description = "the default, but worker 0 (10 ms) fails at 331 ms, during a gradient";
  s.worker_ms = {10, 20, 40, 80};
  s.failing_worker = 0;
  s.fail_ms = 331;
  s.seed = 23;
  s.optimum_ms = 2624;
  s.optimum_note = "the failed worker's mini-batch goes back to the pool; the others stay busy";
  all.push_back(s);

  s = Scenario{};
  s.name = "tight-staleness";
  s.description =
      "the default with a staleness bound of 4: the 40 and 80 ms workers' "
      "gradients arrive too stale";
  s.worker_ms = {10, 20, 40, 80};
  s.staleness_bound = 4;
  s.seed = 24;
  s.optimum_ms = 1870;
  s.optimum_note =
      "the two fastest workers alone (each other subset of workers, or every worker "
      "discarding its stale gradients, is slower)";
  all.push_back(s);

  s = Scenario{};
  s.name = "many-workers";
  s.description =
      "32 workers, four each at 10, 15, 20, 25, 30, 40, 60, 80 ms, pull 1 ms, apply "
      "0.5 ms, 2048 mini-batches";
  s.worker_ms = many_workers();
  s.mini_batches = 2048;
  s.apply_ms = 0.5;
  s.seed = 25;
  s.optimum_ms = 1715.5;
  s.optimum_note = "every worker busy until the pool is empty, pushes one at a time";
  all.push_back(s);
  return all;
}

// Whole microseconds, as the simulator counts them, so that both agree exactly.
std::int64_t us(double ms) { return std::llround(ms * 1000); }
double to_ms(std::int64_t us) { return static_cast<double>(us) / 1000.0; }

}  // namespace

const std::vector<Scenario>& scenarios() {
  static const std::vector<Scenario> all = make_scenarios();
  return all;
}

const Scenario* find_scenario(const std::string& name) {
  return worlds::find_by_name(scenarios(), name);
}

double compute_ms(const Scenario& s, int w, int k) {
  if (s.jitter == 0) return s.worker_ms[w];
  const double u = worlds::uniform(worlds::mix(s.seed), w, k);
  return to_ms(us(s.worker_ms[w] * (1 + s.jitter * u)));
}

double baseline_ms(const Scenario& s) {
  std::deque<int> todo;
  for (int mb = 0; mb < s.mini_batches; ++mb) todo.push_back(mb);
  std::vector<bool> alive(s.workers(), true);
  std::vector<int> computed(s.workers(), 0);
  const std::int64_t fail = us(s.fail_ms);
  std::int64_t now = 0;
  while (!todo.empty()) {
    std::int64_t round_end = now;
    int gradients = 0;
    std::vector<int> returned;
    for (int w = 0; w < s.workers() && !todo.empty(); ++w) {
      const bool fails = w == s.failing_worker;
      if (fails && fail <= now) alive[w] = false;  // known to have failed
      if (!alive[w]) continue;
      const int mb = todo.front();
      todo.pop_front();
      const std::int64_t end = now + us(s.pull_ms) + us(compute_ms(s, w, computed[w]++));
      if (fails && fail <= end) {
        round_end = std::max(round_end, std::max(now, fail));
        alive[w] = false;
        returned.push_back(mb);
      } else {
        round_end = std::max(round_end, end);
        ++gradients;
      }
    }
    now = round_end + (gradients > 0 ? us(s.apply_ms) : 0);
    for (int mb : returned) todo.push_back(mb);
  }
  return to_ms(now);
}

Bound lower_bound(const Scenario& s) {
  // Each applied mini-batch costs its worker a pull, a compute and a send, one after another
  // on that worker. Worker i's n-th gradient is applied no earlier than C_i(n), the sum of its
  // first n cycles (a failing worker's only up to its failure), so M mini-batches need at least
  // the M-th smallest C_i(n) over all workers.
  std::vector<std::int64_t> completions;
  for (int w = 0; w < s.workers(); ++w) {
    std::int64_t t = 0;
    for (int k = 0; k < s.mini_batches; ++k) {
      t += us(s.pull_ms) + us(compute_ms(s, w, k)) + us(s.apply_ms);
      if (w == s.failing_worker && t >= us(s.fail_ms)) break;
      completions.push_back(t);
    }
  }
  std::nth_element(completions.begin(), completions.begin() + (s.mini_batches - 1),
                   completions.end());
  const double capacity = to_ms(completions[s.mini_batches - 1]);
  const double server = s.mini_batches * s.apply_ms;
  Bound bound;
  if (capacity >= server) {
    bound.ms = capacity;
    bound.derivation = fmt::format(
        "worker capacity: each mini-batch costs its worker pull + compute + send ({:g} + t_i + "
        "{:g} ms) in sequence, so the {}-th earliest possible completion over all workers{}",
        s.pull_ms, s.apply_ms, s.mini_batches,
        s.failing_worker >= 0 ? fmt::format(" (worker {} only before it fails at {:g} ms)",
                                            s.failing_worker, s.fail_ms)
                              : "");
  } else {
    bound.ms = server;
    bound.derivation = fmt::format("server capacity: {} applies of {:g} ms, one at a time",
                                   s.mini_batches, s.apply_ms);
  }
  return bound;
}

}  // namespace overlap::param_server
