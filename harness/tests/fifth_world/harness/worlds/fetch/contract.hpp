// The fetch world under the world contract (../common/world.hpp): what the grader runs.
#pragma once

#include <cstdint>
#include <span>
#include <string_view>
#include <vector>

#include "../common/world.hpp"
#include "wire.hpp"
#include "world.hpp"

namespace overlap::fetch {

struct Contract {
  using Scenario = fetch::Scenario;
  using State = detail::State;
  using Hello = wire::Hello;
  static constexpr std::string_view name = "fetch";
  static constexpr std::span<const protocol::Operation> operations = wire::operations;

  static const worlds::ScenarioTable<Scenario>& table();
  static Scenario generate(std::uint64_t seed, int k);
  static std::vector<grade::Parameter> parameters(const Scenario& scenario);
  static worlds::ScenarioFacts facts(const Scenario& scenario);
  static int actors(const Scenario&) { return 1; }
  static Hello hello(const Scenario& scenario);
  static void serve(State& world, const Hello& hello, worlds::Remote& remote, worlds::Call& call);
  static void state(const State&, protocol::Writer&) {}
  static std::string outstanding(const State&) { return ""; }
  static void check(const State& world, sim::Simulator& sim);
  static void add_figures(const State& world, grade::ScenarioResult& result);
};
static_assert(worlds::World<Contract>);

}  // namespace overlap::fetch
