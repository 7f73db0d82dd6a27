// The parameter-server scenarios, with their baseline, lower bound and best known makespan.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "../common/facts.hpp"

namespace overlap::param_server {

struct Scenario {
  std::string name;
  std::string description;
  std::vector<double> worker_ms;  // mean time per gradient, per worker
  double jitter = 0;              // compute k of worker i takes worker_ms[i] * (1 + jitter * u)
  int mini_batches = 240;
  double pull_ms = 1;
  double apply_ms = 1;
  int failing_worker = -1;  // fails at fail_ms, whatever it is doing
  double fail_ms = 0;
  int staleness_bound = -1;  // none
  std::uint64_t seed = 1;
  // The data's noise floor is about 0.0017 (the loss at the start about 0.44).
  double target_loss = 0.0025;
  // The best known makespan: the best schedule of the search over schedule families in the unit
  // tests (an independent simulation). Optimal only where it meets the lower bound, and the note
  // says which.
  double optimum_ms = 0;
  std::string optimum_note;

  int workers() const { return static_cast<int>(worker_ms.size()); }
};

const std::vector<Scenario>& scenarios();
const Scenario* find_scenario(const std::string& name);

// How long compute number `k` (counting from 0) of worker `w` takes.
double compute_ms(const Scenario& s, int w, int k);

// The starter's strategy, simulated: rounds in which every live worker pulls and computes one
// mini-batch, then the server applies their average; a failed worker's mini-batch goes to the
// back of the queue.
double baseline_ms(const Scenario& s);

using worlds::Bound;

// A lower bound every schedule obeys (see the derivation it returns).
Bound lower_bound(const Scenario& s);

}  // namespace overlap::param_server
