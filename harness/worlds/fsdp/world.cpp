#include "world.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>

#include "../common/exercise_of.hpp"
#include "oracle.hpp"
#include "planner.hpp"
#include "wire.hpp"

namespace overlap::fsdp {

namespace {

// Sums may only differ in rounding from the oracle's.
constexpr double kTolerance = 1e-12;

}  // namespace

wire::Hello World::hello(const Scenario& sc) {
  return {sc.ranks, sc.layers, sc.param_buffers, sc.grad_buffers};
}

void World::check(const detail::State& state, sim::Simulator& sim) {
  const Scenario& sc = state.scenario();
  const std::vector<model::Vector> expected = oracle(sc);
  const int shard = model::shard_size(sc.ranks);
  for (int r = 0; r < sc.ranks; ++r) {
    for (int l = 0; l < sc.layers; ++l) {
      if (state.gathered(r, l)) {
        sim.violations().add("unreleased",
                             fmt::format("rank {}: layer {} is still gathered at the end: its "
                                         "full copy predates the optimizer step (stale); release "
                                         "every layer before train returns",
                                         r, l),
                             sim.now());
      }
    }
    if (!state.stepped(r)) {
      sim.violations().add("lost-update", fmt::format("rank {} never ran optimizer_step", r),
                           sim.now());
      continue;
    }
    double worst = 0;
    int worst_layer = 0;
    for (int l = 0; l < sc.layers; ++l) {
      for (int j = 0; j < shard; ++j) {
        const double d = std::abs(state.shard(r, l)[j] - expected[l][r * shard + j]);
        if (d > worst) worst = d, worst_layer = l;
      }
    }
    if (worst > kTolerance) {
      sim.violations().add("wrong-result",
                           fmt::format("rank {}: layer {}'s shard differs from data-parallel "
                                       "SGD's by {:.3g}",
                                       r, worst_layer, worst),
                           sim.now());
    }
  }
}

namespace {

// The paths a scenario makes a run take, from its parameters: which kind of stream has the most
// work, a straggler, layers of different sizes, the tightest memory caps.
std::vector<std::string> paths(const Scenario& s) {
  const int slow = s.slowest_rank();
  double compute = 0, gathers = 0, reduces = 0, copies = 0;
  for (int l = 0; l < s.layers; ++l) {
    const int times = l + 1 < s.layers ? 2 : 1;  // gathered again for the backward, as a rule
    compute += s.forward_on(slow, l) + s.backward_on(slow, l);
    gathers += times * s.all_gather(l);
    copies += times * s.copy(l);
    reduces += s.reduce_scatter(l);
  }
  std::vector<std::string> out;
  out.push_back(std::max({gathers, reduces, copies}) > compute ? "comm-bound" : "compute-bound");
  if (s.slow_rank >= 0 && s.slow_factor > 1) out.push_back("straggler-rank");
  if (s.uneven()) out.push_back("uneven-layers");
  if (s.param_buffers == 1) out.push_back("one-param-buffer");
  if (s.grad_buffers == 1) out.push_back("one-grad-buffer");
  return out;
}

}  // namespace

void World::add_figures(const detail::State& state, verdict::ScenarioResult& result) {
  result.paths_taken = paths(state.scenario());
  // Communication not hidden under compute, on the slowest rank: makespan minus its compute.
  double compute = 0;
  for (const verdict::DeviceUse& d : result.utilisation) {
    if (d.device.ends_with("compute")) compute = std::max(compute, d.busy_ms);
  }
  result.figures.push_back({"exposed communication", result.makespan_ms - compute, "ms"});
  double peak = 0;
  for (const verdict::MemoryPeak& m : result.peak_memory) {
    if (m.pool.ends_with("parameters")) peak = std::max(peak, m.peak);
  }
  result.figures.push_back({"peak gathered layers", peak, "per rank"});
}

worlds::ScenarioFacts World::facts(const Scenario& sc) {
  // A named scenario's best known is published (and the planner's: the unit tests check).
  const Plan plan = best_known(sc);
  const Bound bound = lower_bound(sc);
  const double best = sc.best_known_ms > 0 ? sc.best_known_ms : plan.ms;
  return {sc.name,
          sc.description,
          baseline_ms(sc),
          bound,
          best,
          plan.note + worlds::gap_to_bound(best, bound.ms,
                                           "the streams queueing behind one another under the "
                                           "buffer caps: each bound takes one stream, or compute "
                                           "with the caps, alone")};
}

}  // namespace overlap::fsdp

OVERLAP_REGISTER_WORLD(overlap::fsdp::World, fsdp)
