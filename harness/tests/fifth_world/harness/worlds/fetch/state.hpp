// The fetch world's scenarios and its state behind the submission's Source: a device per link.
#pragma once

#include <overlap/handler.hpp>
#include <string>
#include <vector>

#include "../../sim/simulator.hpp"
#include "../common/remote.hpp"
#include "wire.hpp"

namespace overlap::fetch {

struct Scenario {
  std::string name;
  std::string description;
  int shards = 12;
  int links = 3;
  int fetch_ms = 20;

  // The starter's makespan: one shard at a time.
  double baseline_ms() const { return static_cast<double>(shards) * fetch_ms; }
  // Link 0 carries the most shards: no schedule ends before it has carried them all.
  double bound_ms() const { return static_cast<double>((shards + links - 1) / links) * fetch_ms; }
};

namespace detail {

class State {
 public:
  State(const Scenario& scenario, sim::Simulator& sim);
  State(const State&) = delete;
  State& operator=(const State&) = delete;

  const Scenario& scenario() const { return scenario_; }
  // Source::fetch (wire.hpp).
  void start(const wire::Fetch& args, worlds::Serving& call);
  // How many times each shard was fetched, for the checks once the run is over.
  const std::vector<int>& fetched() const { return fetched_; }

 private:
  const Scenario& scenario_;
  sim::Simulator& sim_;
  std::vector<sim::Device*> links_;
  std::vector<int> fetched_;
};

}  // namespace detail

}  // namespace overlap::fetch
