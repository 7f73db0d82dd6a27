// The fetch world under the world contract (../common/world.hpp): what the grader runs.
#pragma once

#include <cstdint>
#include <span>
#include <string_view>
#include <vector>

#include "../common/world.hpp"
#include "state.hpp"
#include "wire.hpp"

namespace overlap::fetch {

struct World {
  using Scenario = fetch::Scenario;
  using State = detail::State;
  using Hello = wire::Hello;
  static constexpr std::string_view name = "fetch";
  using Operations = wire::Operations;  // served by State::start
  static constexpr const auto& ranges = wire::ranges;

  static const worlds::ScenarioTable<Scenario>& table();
  static Scenario generate(std::uint64_t seed, int k);
  static std::vector<verdict::Parameter> parameters(const Scenario& scenario);
  static worlds::ScenarioFacts facts(const Scenario& scenario);
  static Hello hello(const Scenario& scenario);
  static void check(const State& state, sim::Simulator& sim);
  static void add_figures(const State& state, verdict::ScenarioResult& result);
};
static_assert(worlds::World<World>);

}  // namespace overlap::fetch
