#include "exercise.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>

#include "../common/launch.hpp"
#include "../common/run_record.hpp"
#include "../common/scenario_list.hpp"
#include "oracle.hpp"
#include "world.hpp"

namespace overlap::pipeline {

namespace {

// Summation order may differ from the oracle's (backwards in another order), nothing else.
constexpr double kTolerance = 1e-9;

// Compares the trained weights with the sequential oracle's.
void check_weights(const detail::World& world, sim::Simulator& sim) {
  const Scenario& sc = world.scenario();
  const OracleRun expected = oracle(world.shape(), sc.seed, sc.steps);
  for (int s = 0; s < sc.stages(); ++s) {
    const model::Layer& got = world.layers()[s];
    const model::Layer& want = expected.layers[s];
    double worst = 0;
    for (int o = 0; o < want.weight.rows(); ++o) {
      worst = std::max(worst, std::abs(got.bias[o] - want.bias[o]));
      for (int i = 0; i < want.weight.cols(); ++i) {
        worst = std::max(worst, std::abs(got.weight(o, i) - want.weight(o, i)));
      }
    }
    if (worst > kTolerance) {
      sim.violations().add("wrong-result",
                           fmt::format("stage {}: weights differ from the sequential oracle's by "
                                       "up to {:.3g} (tolerance {:g})",
                                       s, worst, kTolerance),
                           sim.now());
    }
  }
}

void check_finished_run(const detail::World& world, sim::Simulator& sim) {
  const Scenario& sc = world.scenario();
  for (int s = 0; s < sc.stages(); ++s) {
    if (world.steps_done(s) != sc.steps) {
      sim.violations().add(
          "lost-update",
          fmt::format("stage {} ran {} of {} optimizer steps", s, world.steps_done(s), sc.steps),
          sim.now());
    }
  }
  if (const std::string unapplied = world.unapplied_work(); !unapplied.empty()) {
    sim.violations().add("lost-update", unapplied, sim.now());
  }
  check_weights(world, sim);
}

void add_figures(const Scenario& sc, grade::ScenarioResult& result) {
  double busy = 0;
  for (const grade::DeviceUse& d : result.devices) busy += d.busy_ms;
  const double capacity = result.makespan_ms * sc.stages();
  result.figures.push_back({"makespan per step", result.makespan_ms / sc.steps, "ms"});
  result.figures.push_back({"bubble fraction", capacity > 0 ? 1.0 - busy / capacity : 0, ""});
  const int p = sc.stages(), m = sc.micro_batches;
  result.figures.push_back({"bubble fraction of a flushed schedule, (p-1)/(m+p-1)",
                            static_cast<double>(p - 1) / (m + p - 1), ""});
}

class PipelineExercise final : public grade::Exercise {
 public:
  explicit PipelineExercise(Entry<Pipeline> submission) : submission_(submission) {}

  std::string name() const override { return "pipeline"; }

  std::vector<grade::ScenarioInfo> scenarios() const override {
    return worlds::infos(pipeline::scenarios());
  }

  grade::ScenarioResult run(const std::string& name) const override {
    const Scenario& sc = *find_scenario(name);
    const double baseline = baseline_step_ms(sc) * sc.steps;
    sim::Simulator sim;
    detail::World world(sc, sim);
    const worlds::RunOutcome outcome =
        worlds::run_submission(sim, submission_, {&world.pipeline()}, baseline);
    worlds::add_run_end_violation(sim, outcome, world.outstanding());
    if (outcome.completed()) check_finished_run(world, sim);

    const Bound bound = lower_bound(sc);
    grade::ScenarioResult result = worlds::record_run(
        sim, outcome,
        {sc.name, fmt::format("{}; {} steps", sc.description, sc.steps), baseline,
         bound.step_ms * sc.steps,
         fmt::format("{} = {:g} ms per step; steps cannot overlap (a stage's next forward needs "
                     "its optimizer step), so x{} steps",
                     bound.derivation, bound.step_ms, sc.steps),
         sc.optimum_step_ms * sc.steps,
         fmt::format("{:g} ms per step: {}", sc.optimum_step_ms, sc.optimum_note)});
    // The first step when the run finished; all of it otherwise, to show where it stopped.
    if (result.finished) result.chart_window_ms = result.makespan_ms / sc.steps;
    add_figures(sc, result);
    return result;
  }

 private:
  Entry<Pipeline> submission_;
};

}  // namespace

std::unique_ptr<grade::Exercise> make_exercise(Entry<Pipeline> submission) {
  return std::make_unique<PipelineExercise>(submission);
}

}  // namespace overlap::pipeline
