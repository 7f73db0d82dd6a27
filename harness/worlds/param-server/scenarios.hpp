// The parameter-server scenarios, with their baseline, lower bound and best known makespan.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "../common/facts.hpp"
#include "../common/scenario_table.hpp"

namespace overlap::param_server {

// A worker that fails at an instant, whatever it is doing then.
struct Failure {
  int worker = -1;
  double at_ms = 0;
};

struct Scenario {
  std::string name;
  std::string description;
  std::vector<double> worker_ms;  // mean time per gradient, per worker
  double jitter = 0;              // compute k of worker i takes worker_ms[i] * (1 + jitter * u)
  int mini_batches = 240;
  double pull_ms = 1;
  double apply_ms = 1;
  std::vector<Failure> failures{};  // at most two, of distinct workers
  int staleness_bound = -1;         // none
  std::uint64_t seed = 1;
  // The data's noise floor is about 0.0017 (the loss at the start about 0.44).
  double target_loss = 0.0025;
  // The best known makespan: the best of the kit's programs' rules as the planner simulates
  // them (planner.hpp), published for the named scenarios and filled in when one is generated
  // (0: not known yet). Optimal only where it meets the lower bound, and the note says which.
  double best_known_ms = 0;
  std::string best_known_note{};
  double hindsight_ms = 0;  // the planner's search's best, when below the best known (0: none)

  int workers() const { return static_cast<int>(worker_ms.size()); }
  // When worker w fails, in whole microseconds; never: -1.
  std::int64_t fails_at_us(int w) const;
};

// The named scenarios and the stretch ones, with figures like any other.
const worlds::ScenarioTable<Scenario>& scenario_table();

// How long compute number `k` (counting from 0) of worker `w` takes.
double compute_ms(const Scenario& s, int w, int k);

// The starter's strategy, simulated: rounds in which every live worker pulls and computes one
// mini-batch, then the server applies their average; a failed worker's mini-batch goes to the
// back of the queue.
double baseline_ms(const Scenario& s);
// Whether the starter survives the scenario: a worker that fails after its gradient is in but
// before the round's average is sent makes that average fail, which the starter does not handle.
bool starter_survives(const Scenario& s);

using worlds::Bound;

// A lower bound every schedule obeys (see the derivation it returns).
Bound lower_bound(const Scenario& s);

}  // namespace overlap::param_server
