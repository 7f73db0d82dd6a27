// The world contract: what every exercise's world provides, once. A world W is a type naming
//   W::Api        what train() takes (Pipeline, Trainer, Cluster, Rank)
//   W::Scenario   a world configuration, with a `name` and a `description`
//   W::State      the simulated world behind the API, built on a simulator
// and these static functions:
//   name                the exercise's name, as in the manifest ("pipeline")
//   scenarios()         the named scenarios, default first
//   facts(scenario)     baseline, bound and best known, with their derivations
//   actors(state)       one API object per actor the submission runs as (one, or one per rank)
//   outstanding(state)  the unfinished work, for a deadlock report
//   check(state, sim)   the end-of-run checks of a run that returned: violations on `sim`
//   add_figures(state, result)  the exercise's own figures (bubble fraction, staleness, ...)
// run_world.hpp turns any such W into the grader's Exercise.
#pragma once

#include <concepts>
#include <string>
#include <string_view>
#include <vector>

#include "../../core/simulator.hpp"
#include "../../result/result.hpp"
#include "facts.hpp"

namespace overlap::worlds {

template <typename W>
concept World = requires(const typename W::Scenario& scenario, typename W::State& state,
                         const typename W::State& finished, sim::Simulator& sim,
                         grade::ScenarioResult& result) {
  typename W::Api;
  { W::name } -> std::convertible_to<std::string_view>;
  { W::scenarios() } -> std::same_as<const std::vector<typename W::Scenario>&>;
  { scenario.name } -> std::convertible_to<std::string>;
  { scenario.description } -> std::convertible_to<std::string>;
  { W::facts(scenario) } -> std::same_as<ScenarioFacts>;
  requires std::constructible_from<typename W::State, const typename W::Scenario&, sim::Simulator&>;
  { W::actors(state) } -> std::same_as<std::vector<typename W::Api*>>;
  { W::outstanding(finished) } -> std::same_as<std::string>;
  { W::check(finished, sim) } -> std::same_as<void>;
  { W::add_figures(finished, result) } -> std::same_as<void>;
};

}  // namespace overlap::worlds
