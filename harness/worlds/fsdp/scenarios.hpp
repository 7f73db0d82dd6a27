// The FSDP scenarios, with their baseline and lower bound.
#pragma once

#include <cmath>
#include <cstdint>
#include <string>
#include <vector>

#include "../common/facts.hpp"
#include "../common/scenario_table.hpp"

namespace overlap::fsdp {

struct Scenario {
  std::string name;
  std::string description;
  int ranks = 4;
  int layers = 12;
  // Per unit of layer size (a layer of size 1 takes exactly these).
  double copy_ms = 10;  // host-to-device copy of one shard
  double all_gather_ms = 10;
  double forward_ms = 10;
  double backward_ms = 20;
  double reduce_scatter_ms = 20;
  // Each layer's size relative to the unit, which scales every one of its times; empty: all 1.
  std::vector<double> sizes{};
  int slow_rank = -1;  // its forward and backward take slow_factor times as long
  double slow_factor = 1;
  int param_buffers = 2;
  int grad_buffers = 2;
  std::uint64_t seed = 1;
  // The best schedule known, published for the named scenarios (the planner, planner.hpp,
  // reaches it: the unit tests check); 0 for a generated one, whose figure the planner gives.
  double best_known_ms = 0;

  double size(int layer) const { return sizes.empty() ? 1.0 : sizes[layer]; }
  bool uneven() const;

  // Layer `layer`'s times, in whole microseconds as the simulator counts them.
  double copy(int layer) const { return whole_us(copy_ms * size(layer)); }
  double all_gather(int layer) const { return whole_us(all_gather_ms * size(layer)); }
  double reduce_scatter(int layer) const { return whole_us(reduce_scatter_ms * size(layer)); }
  double forward_on(int rank, int layer) const {
    return whole_us(forward_ms * size(layer) * (rank == slow_rank ? slow_factor : 1));
  }
  double backward_on(int rank, int layer) const {
    return whole_us(backward_ms * size(layer) * (rank == slow_rank ? slow_factor : 1));
  }
  // The slowest rank's, which every collective waits for.
  int slowest_rank() const { return slow_rank >= 0 && slow_factor > 1 ? slow_rank : 0; }

  static double whole_us(double ms) { return std::round(ms * 1000) / 1000; }
};

// The named scenarios and the stretch ones, with figures like any other.
const worlds::ScenarioTable<Scenario>& scenario_table();

// The starter's strategy, every rank in lockstep: per layer copy, gather, forward, release;
// then from the last layer back copy and gather (not for the last layer, still gathered),
// backward, reduce-scatter, release.
double baseline_ms(const Scenario& s);

using worlds::Bound;

// A lower bound every schedule obeys: the busiest stream, plus the work that must come before
// its first operation and after its last (see the derivation it returns).
Bound lower_bound(const Scenario& s);

}  // namespace overlap::fsdp
