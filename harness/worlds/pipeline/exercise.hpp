// The pipeline world under the world contract (../common/world.hpp): what the grader runs.
#pragma once

#include <overlap/pipeline.hpp>
#include <string_view>
#include <vector>

#include "../common/world.hpp"
#include "scenarios.hpp"
#include "world.hpp"

namespace overlap::pipeline {

struct Contract {
  using Api = Pipeline;
  using Scenario = pipeline::Scenario;
  using State = detail::World;
  static constexpr std::string_view name = "pipeline";

  static const std::vector<Scenario>& scenarios() { return pipeline::scenarios(); }
  static worlds::ScenarioFacts facts(const Scenario& scenario);
  static std::vector<Api*> actors(State& world) { return {&world.pipeline()}; }
  static std::string outstanding(const State& world) { return world.outstanding(); }
  static void check(const State& world, sim::Simulator& sim);
  static void add_figures(const State& world, grade::ScenarioResult& result);
};
static_assert(worlds::World<Contract>);

}  // namespace overlap::pipeline
