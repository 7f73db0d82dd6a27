// The grad-accum world under the world contract (../common/world.hpp): what the grader runs.
#pragma once

#include <cstdint>
#include <span>
#include <string_view>
#include <vector>

#include "../common/world.hpp"
#include "oracle.hpp"
#include "scenarios.hpp"
#include "state.hpp"
#include "wire.hpp"

namespace overlap::grad_accum {

// The world of one run, and what a sequential run of it gives (once): the decision early
// stopping makes, and the weights each check validates.
struct Run {
  Run(const Scenario& scenario, sim::Simulator& sim)
      : world(scenario, sim), expected(oracle(scenario)), decision(expected.decision) {}
  // Each call is the world's to serve.
  template <typename Operation>
  void start(const Operation& args, worlds::Serving& call) {
    world.start(args, call);
  }

  detail::State world;
  OracleRun expected;
  const Decision& decision;
};

struct World {
  using Scenario = grad_accum::Scenario;
  using State = Run;
  using Hello = wire::Hello;
  static constexpr std::string_view name = "grad-accum";
  using Operations = wire::Operations;  // served by State::start
  static constexpr const auto& ranges = wire::ranges;

  static const worlds::ScenarioTable<Scenario>& table() { return grad_accum::scenario_table(); }
  static Scenario generate(std::uint64_t seed, int k);
  static std::vector<verdict::Parameter> parameters(const Scenario& scenario);
  static worlds::ScenarioFacts facts(const Scenario& scenario);
  static Hello hello(const Scenario& scenario);
  static void state(const State& state, protocol::Writer& w);
  static std::string outstanding(const State& state) { return state.world.outstanding(); }
  static void check(const State& state, sim::Simulator& sim);
  static void add_figures(const State& state, verdict::ScenarioResult& result);
};
static_assert(worlds::World<World>);

}  // namespace overlap::grad_accum
