#include "world.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <string>
#include <vector>

#include "../common/exercise_of.hpp"
#include "oracle.hpp"
#include "wire.hpp"

namespace overlap::pipeline {

namespace {

// Summation order may differ from the oracle's (backwards in another order), nothing else.
constexpr double kTolerance = 1e-9;

// Compares the trained weights with the sequential oracle's.
void check_weights(const detail::State& state, sim::Simulator& sim) {
  const Scenario& sc = state.scenario();
  const OracleRun expected = oracle(state.shape(), sc.seed, sc.steps);
  for (int s = 0; s < sc.stages(); ++s) {
    const model::Layer& got = state.layers()[s];
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

// Where the scenario puts the bottleneck and whether GPipe fits; whether the run used a stage's
// whole stash budget and reached the proven bound.
void add_paths(const detail::State& state, const verdict::ScenarioResult& result,
               std::vector<std::string>& paths) {
  const Scenario& sc = state.scenario();
  const int p = sc.stages();
  if (*std::min_element(sc.stashes.begin(), sc.stashes.end()) < sc.micro_batches) {
    paths.push_back("gpipe-out-of-memory");  // all forwards first would hold m stashes
  }
  // The one slowest stage (forward plus backward), if one is slower than all others.
  int slowest = 0, tied = 0;
  for (int s = 1; s < p; ++s) {
    const double t = sc.forward_ms[s] + sc.backward_ms[s];
    const double worst = sc.forward_ms[slowest] + sc.backward_ms[slowest];
    if (t > worst) {
      slowest = s;
      tied = 0;
    } else if (t == worst) {
      ++tied;
    }
  }
  if (tied == 0) {
    paths.push_back(slowest == 0       ? "slowest-stage-first"
                    : slowest == p - 1 ? "slowest-stage-last"
                                       : "slowest-stage-middle");
  }
  for (int s = 0; s < p; ++s) {
    if (state.peak_stashes(s) >= sc.stashes[s]) {
      paths.push_back("stash-budget-full");  // some stage held all the stashes it may
      break;
    }
  }
  // A correct run at the bound is provably optimal.
  if (result.finished && result.violations_total == 0 &&
      sim::from_ms(result.makespan_ms) == sim::from_ms(result.bound_ms)) {
    paths.push_back("bound-reached");
  }
}

}  // namespace

wire::Hello World::hello(const Scenario& sc) {
  const model::Shape shape = model::shape_for(sc.stages(), sc.micro_batches);
  return {sc.micro_batches, sc.steps, shape.rows, sc.stashes, shape.widths};
}

void World::check(const detail::State& state, sim::Simulator& sim) {
  const Scenario& sc = state.scenario();
  for (int s = 0; s < sc.stages(); ++s) {
    if (state.steps_done(s) != sc.steps) {
      sim.violations().add(
          "lost-update",
          fmt::format("stage {} ran {} of {} optimizer steps", s, state.steps_done(s), sc.steps),
          sim.now());
    }
  }
  if (const std::string unapplied = state.unapplied_work(); !unapplied.empty()) {
    sim.violations().add("lost-update", unapplied, sim.now());
  }
  check_weights(state, sim);
}

worlds::ScenarioFacts World::facts(const Scenario& sc) {
  const Bound bound = lower_bound(sc);
  // Whole runs in integer microseconds: the starter's makespan is exactly the baseline.
  auto run_ms = [&sc](sim::Time step) { return sim::to_ms(step * sc.steps); };
  return {sc.name,
          fmt::format("{}; {} steps", sc.description, sc.steps),
          run_ms(baseline_step(sc)),
          {run_ms(sim::from_ms(bound.ms)),
           fmt::format("{} = {:g} ms per step; steps cannot overlap (a stage's next forward needs "
                       "its optimizer step), so x{} steps",
                       bound.derivation, bound.ms, sc.steps)},
          run_ms(sim::from_ms(sc.best_known_step_ms)),
          fmt::format("{:g} ms per step: {}{}", sc.best_known_step_ms, sc.best_known_note,
                      worlds::gap_to_bound(sc.best_known_step_ms, bound.ms,
                                           "the stages' orders together: each bound takes one "
                                           "stage's work, warm-up or stash lanes, while the "
                                           "orders of the others delay its inputs"))};
}

void World::add_figures(const detail::State& state, verdict::ScenarioResult& result) {
  const Scenario& sc = state.scenario();
  // The first step when the run finished; all of it otherwise, to show where it stopped.
  if (result.finished) result.chart_window_ms = result.makespan_ms / sc.steps;
  double busy = 0;
  for (const verdict::DeviceUse& d : result.utilisation) busy += d.busy_ms;
  const double capacity = result.makespan_ms * sc.stages();
  result.figures.push_back({"makespan per step", result.makespan_ms / sc.steps, "ms"});
  result.figures.push_back({"bubble fraction", capacity > 0 ? 1.0 - busy / capacity : 0, ""});
  const int p = sc.stages(), m = sc.micro_batches;
  result.figures.push_back({"bubble fraction of a flushed schedule, (p-1)/(m+p-1)",
                            static_cast<double>(p - 1) / (m + p - 1), ""});
  add_paths(state, result, result.paths_taken);
}

}  // namespace overlap::pipeline

OVERLAP_REGISTER_WORLD(overlap::pipeline::World, pipeline)
