// The pipeline scenarios, named or generated, with their baseline, lower bound and best known
// step.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "../../sim/time.hpp"
#include "../common/facts.hpp"
#include "../common/scenario_table.hpp"

namespace overlap::pipeline {

struct Scenario {
  std::string name;
  std::string description;
  std::vector<double> forward_ms;   // per stage
  std::vector<double> backward_ms;  // per stage
  std::vector<int> stashes;         // activation stash budget per stage
  int micro_batches = 8;
  int steps = 3;
  double optimizer_ms = 0;  // free: the figures per step are forward and backward alone
  std::uint64_t seed = 1;
  // The best schedule known for one step, and how it is reached: the planner's (planner.hpp);
  // for a named scenario, its published figure, which the unit tests check against the planner.
  double best_known_step_ms = 0;
  std::string best_known_note{};

  int stages() const { return static_cast<int>(forward_ms.size()); }
};

// The named scenarios and the stretch ones, with figures like any other.
const worlds::ScenarioTable<Scenario>& scenario_table();

// The starter's strategy: one micro-batch at a time through every stage and back, then each
// stage's optimizer step in turn. In integer microseconds, as the simulator adds them up, so that
// the starter's makespan is exactly `steps` times this.
sim::Time baseline_step(const Scenario& s);
inline double baseline_step_ms(const Scenario& s) { return sim::to_ms(baseline_step(s)); }

using worlds::Bound;

// A lower bound on one step that every schedule obeys (see the derivation it returns).
Bound lower_bound(const Scenario& s);

}  // namespace overlap::pipeline
