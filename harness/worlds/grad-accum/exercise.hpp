// The grad-accum world under the world contract (../common/world.hpp): what the grader runs.
#pragma once

#include <overlap/grad_accum.hpp>
#include <string_view>
#include <vector>

#include "../common/world.hpp"
#include "scenarios.hpp"
#include "world.hpp"

namespace overlap::grad_accum {

struct Contract {
  using Api = Trainer;
  using Scenario = grad_accum::Scenario;
  using State = detail::World;
  static constexpr std::string_view name = "grad-accum";

  static const std::vector<Scenario>& scenarios() { return grad_accum::scenarios(); }
  static worlds::ScenarioFacts facts(const Scenario& scenario);
  static std::vector<Api*> actors(State& world) { return {&world.trainer()}; }
  static std::string outstanding(const State& world) { return world.outstanding(); }
  static void check(const State& world, sim::Simulator& sim);
  static void add_figures(const State& world, grade::ScenarioResult& result);
};
static_assert(worlds::World<Contract>);

}  // namespace overlap::grad_accum
