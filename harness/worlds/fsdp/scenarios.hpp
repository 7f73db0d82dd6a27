// The FSDP scenarios, with their baseline, lower bound and reachable optimum.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "../common/facts.hpp"

namespace overlap::fsdp {

struct Scenario {
  std::string name;
  std::string description;
  int ranks = 4;
  int layers = 12;
  double copy_ms = 10;  // host-to-device copy of one shard
  double all_gather_ms = 10;
  double forward_ms = 10;
  double backward_ms = 20;
  double reduce_scatter_ms = 20;
  int slow_rank = -1;  // its forward and backward take slow_factor times as long
  double slow_factor = 1;
  int param_buffers = 2;
  int grad_buffers = 2;
  std::uint64_t seed = 1;
  // The best schedule known (an independent simulation in the unit tests checks it): in every
  // shipped scenario the bound itself.
  double optimum_ms = 0;
  std::string optimum_note = "the bound, reachable within the buffer caps";

  double forward_on(int rank) const {
    return rank == slow_rank ? forward_ms * slow_factor : forward_ms;
  }
  double backward_on(int rank) const {
    return rank == slow_rank ? backward_ms * slow_factor : backward_ms;
  }
};

const std::vector<Scenario>& scenarios();
const Scenario* find_scenario(const std::string& name);

// The starter's strategy, every rank in lockstep: per layer copy, gather, forward, release;
// then from the last layer back copy and gather (not for the last layer, still gathered),
// backward, reduce-scatter, release.
double baseline_ms(const Scenario& s);

using worlds::Bound;

// A lower bound every schedule obeys: the busiest stream, plus the work that must come before
// its first operation and after its last (see the derivation it returns).
Bound lower_bound(const Scenario& s);

}  // namespace overlap::fsdp
