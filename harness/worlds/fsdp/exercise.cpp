#include "exercise.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>

#include "../common/launch.hpp"
#include "../common/run_record.hpp"
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

void add_figures(const Scenario& sc, grade::ScenarioResult& result) {
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
  (void)sc;
}

class FsdpExercise final : public grade::Exercise {
 public:
  explicit FsdpExercise(Entry<Rank> submission) : submission_(submission) {}

  std::string name() const override { return "fsdp"; }

  std::vector<grade::ScenarioInfo> scenarios() const override {
    std::vector<grade::ScenarioInfo> out;
    for (const Scenario& s : fsdp::scenarios()) out.push_back({s.name, s.description});
    return out;
  }

  grade::ScenarioResult run(const std::string& name) const override {
    const Scenario& sc = *find_scenario(name);
    const double baseline = baseline_ms(sc);

    sim::Simulator sim;
    sim.set_limits(sim::ms(20 * baseline), 5'000'000);
    detail::World world(sc, sim);
    worlds::RunOutcome outcome;
    int returned = 0;
    for (int r = 0; r < sc.ranks; ++r) {  // SPMD: the same train, once per rank
      worlds::launch(sim, submission_, world.rank(r), [&](std::exception_ptr e) {
        ++returned;
        if (e && !outcome.thrown) outcome.thrown = e;
      });
    }
    outcome.end = sim.run([&] { return returned == sc.ranks || outcome.thrown; });
    outcome.returned = returned == sc.ranks;
    worlds::add_run_end_violation(sim, outcome, world.outstanding());
    if (outcome.returned && !outcome.thrown) check_finished_run(world, sim);

    grade::ScenarioResult result;
    result.name = sc.name;
    result.description = sc.description;
    worlds::record_run(sim, outcome, result);
    result.baseline_ms = baseline;
    const Bound bound = lower_bound(sc);
    result.bound_ms = bound.ms;
    result.bound_derivation = bound.derivation;
    result.optimum_ms = sc.optimum_ms;
    result.optimum_note = fmt::format("{:g} ms: {}", sc.optimum_ms, sc.optimum_note);
    result.chart_window_ms = result.makespan_ms;
    add_figures(sc, result);
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
