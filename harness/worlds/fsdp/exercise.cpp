#include "exercise.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>

#include "../common/launch.hpp"
#include "../common/run_record.hpp"
#include "../common/scenario_list.hpp"
#include "oracle.hpp"
#include "world.hpp"

namespace overlap::fsdp {

namespace {

// Sums may only differ in rounding from the oracle's.
constexpr double kTolerance = 1e-12;

void check_finished_run(const detail::World& world, sim::Simulator& sim) {
  const Scenario& sc = world.scenario();
  const std::vector<model::Vector> expected = oracle(sc);
  const int shard = model::shard_size(sc.ranks);
  for (int r = 0; r < sc.ranks; ++r) {
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

void add_figures(grade::ScenarioResult& result) {
  // Communication not hidden under compute, on the slowest rank: makespan minus its compute.
  double compute = 0;
  for (const grade::DeviceUse& d : result.devices) {
    if (d.device.ends_with("compute")) compute = std::max(compute, d.busy_ms);
  }
  result.figures.push_back({"exposed communication", result.makespan_ms - compute, "ms"});
  double peak = 0;
  for (const grade::MemoryPeak& m : result.peak_memory) {
    if (m.pool.ends_with("parameters")) peak = std::max(peak, m.peak);
  }
  result.figures.push_back({"peak gathered layers", peak, "per rank"});
}

class FsdpExercise final : public grade::Exercise {
 public:
  explicit FsdpExercise(Entry<Rank> submission) : submission_(submission) {}

  std::string name() const override { return "fsdp"; }

  std::vector<grade::ScenarioInfo> scenarios() const override {
    return worlds::infos(fsdp::scenarios());
  }

  grade::ScenarioResult run(const std::string& name) const override {
    const Scenario& sc = *find_scenario(name);
    const double baseline = baseline_ms(sc);
    sim::Simulator sim;
    detail::World world(sc, sim);
    std::vector<Rank*> ranks;
    for (int r = 0; r < sc.ranks; ++r) ranks.push_back(&world.rank(r));
    const worlds::RunOutcome outcome =
        worlds::run_submission(sim, submission_, ranks, baseline);  // SPMD
    worlds::add_run_end_violation(sim, outcome, world.outstanding());
    if (outcome.completed()) check_finished_run(world, sim);

    const Bound bound = lower_bound(sc);
    grade::ScenarioResult result = worlds::record_run(
        sim, outcome,
        {sc.name, sc.description, baseline, bound.ms, bound.derivation, sc.optimum_ms,
         fmt::format("{:g} ms: {}", sc.optimum_ms, sc.optimum_note)});
    add_figures(result);
    return result;
  }

 private:
  Entry<Rank> submission_;
};

}  // namespace

std::unique_ptr<grade::Exercise> make_exercise(Entry<Rank> submission) {
  return std::make_unique<FsdpExercise>(submission);
}

}  // namespace overlap::fsdp
