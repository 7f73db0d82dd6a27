#include "exercise.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>

#include "../common/run_world.hpp"
#include "oracle.hpp"
#include "wire.hpp"

namespace overlap::fsdp {

namespace {

// Sums may only differ in rounding from the oracle's.
constexpr double kTolerance = 1e-12;

}  // namespace

void Contract::hello(const Scenario& sc, protocol::Writer& w) {
  w.integer(sc.ranks).integer(sc.layers).integer(sc.param_buffers).integer(sc.grad_buffers);
}

void Contract::serve(State& world, worlds::Remote& remote, worlds::Call& call) {
  if (call.op > wire::release) {
    throw protocol::ProtocolError(fmt::format("fsdp has no operation {}", call.op));
  }
  // Every call names its rank first, then its layer, if any. A layer out of range is the world's
  // to reject: a misuse a candidate's off-by-one makes, not a protocol error.
  const int r = call.index(world.scenario().ranks, "rank");
  switch (call.op) {
    case wire::copy_in:
      return world.start_copy_in(r, call.value("layer"), remote.reply(call.number));
    case wire::all_gather:
      return world.start_collective(r, detail::kAllGather, call.value("layer"),
                                    remote.reply(call.number));
    case wire::forward:
      return world.start_forward(r, call.value("layer"), remote.reply(call.number));
    case wire::backward:
      return world.start_backward(r, call.value("layer"), remote.reply(call.number));
    case wire::reduce_scatter:
      return world.start_collective(r, detail::kReduceScatter, call.value("layer"),
                                    remote.reply(call.number));
    case wire::optimizer_step:
      return world.start_optimizer_step(r, remote.reply(call.number));
    case wire::release:
      return world.release(r, call.value("layer"));
  }
  throw protocol::ProtocolError(fmt::format("fsdp has no operation {}", call.op));
}

void Contract::check(const detail::World& world, sim::Simulator& sim) {
  const Scenario& sc = world.scenario();
  const std::vector<model::Vector> expected = oracle(sc);
  const int shard = model::shard_size(sc.ranks);
  for (int r = 0; r < sc.ranks; ++r) {
    for (int l = 0; l < sc.layers; ++l) {
      if (world.gathered(r, l)) {
        sim.violations().add("unreleased",
                             fmt::format("rank {}: layer {} is still gathered at the end: its "
                                         "full copy predates the optimizer step (stale); release "
                                         "every layer before train returns",
                                         r, l),
                             sim.now());
      }
    }
    if (!world.stepped(r)) {
      sim.violations().add("lost-update", fmt::format("rank {} never ran optimizer_step", r),
                           sim.now());
      continue;
    }
    double worst = 0;
    int worst_layer = 0;
    for (int l = 0; l < sc.layers; ++l) {
      for (int j = 0; j < shard; ++j) {
        const double d = std::abs(world.shard(r, l)[j] - expected[l][r * shard + j]);
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

void Contract::add_figures(const detail::World&, grade::ScenarioResult& result) {
  // Communication not hidden under compute, on the slowest rank: makespan minus its compute.
  double compute = 0;
  for (const grade::DeviceUse& d : result.utilisation) {
    if (d.device.ends_with("compute")) compute = std::max(compute, d.busy_ms);
  }
  result.figures.push_back({"exposed communication", result.makespan_ms - compute, "ms"});
  double peak = 0;
  for (const grade::MemoryPeak& m : result.peak_memory) {
    if (m.pool.ends_with("parameters")) peak = std::max(peak, m.peak);
  }
  result.figures.push_back({"peak gathered layers", peak, "per rank"});
}

worlds::ScenarioFacts Contract::facts(const Scenario& sc) {
  return {sc.name,         sc.description,
          baseline_ms(sc), lower_bound(sc),
          sc.optimum_ms,   fmt::format("{:g} ms: {}", sc.optimum_ms, sc.optimum_note)};
}

}  // namespace overlap::fsdp

OVERLAP_REGISTER_WORLD(overlap::fsdp::Contract, fsdp)
