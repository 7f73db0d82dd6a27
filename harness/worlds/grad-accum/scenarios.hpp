// The grad-accum scenarios, named and generated, with their baseline and lower bound.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "../common/facts.hpp"
#include "../common/scenario_table.hpp"

namespace overlap::grad_accum {

struct Scenario {
  std::string name;
  std::string description;
  std::vector<double> worker_ms = {20, 20, 20, 20};  // per micro-batch gradient
  int micro_batches = 8;                             // N, per step
  double optimizer_ms = 20;
  int validate_every = 2;  // K
  double validate_ms = 350;
  int validators = 3;
  std::vector<double> validator_ms{};  // per validator, when they differ (else validate_ms each)
  int snapshot_slots = 3;
  int patience = 3;
  double min_delta = 0.01;
  int max_steps = 40;
  std::uint64_t seed = 43;
  double learning_rate = 1.0;
  // Published for a named scenario (the planner's figure, checked in the unit tests), with how it
  // is reached: for interviewers. Zero for a generated one, whose figure is the planner's.
  double best_known_ms = 0;
  std::string best_known_note{};

  double validation_ms(int v) const { return validator_ms.empty() ? validate_ms : validator_ms[v]; }
};

// The named scenarios and the stretch ones, with figures like any other.
const worlds::ScenarioTable<Scenario>& scenario_table();

// What early stopping decides over the true check losses (from the oracle).
struct Decision {
  std::vector<double> losses;  // check c's loss at losses[c - 1], for every check run
  int stop_check = 0;          // the check that decides
  int best_check = 0;          // the last check that improved
  bool by_patience = false;    // patience ran out (else the step limit ended training)
};
Decision decide(const Scenario& s, const std::vector<double>& losses);

// The fastest one step's gradients can be computed: N micro-batches spread over the workers,
// each next one to the worker that would finish it first.
double step_compute_ms(const Scenario& s);

// The starter: micro-batches one at a time on worker 0, every validation blocking training.
double baseline_ms(const Scenario& s, const Decision& d);

using worlds::Bound;

Bound lower_bound(const Scenario& s, const Decision& d);

}  // namespace overlap::grad_accum
