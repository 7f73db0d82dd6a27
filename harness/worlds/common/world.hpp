// The world contract: what every exercise's world provides, once. A world W is a type naming
//   W::Scenario   a world configuration, with a `name` and a `description`
//   W::State      the simulated world behind the API, built on a simulator
//   W::Hello      what the submission is told of a scenario (a described struct, wire.hpp)
// and these static functions:
//   name                    the exercise's name, as in the manifest ("pipeline")
//   Operations, ranges      its API's operations, listed once (wire.hpp, protocol/operation.hpp),
//                           and the ranges the judge holds their arguments to
//   table()                 its named scenarios, default first, and its stretch ones: harder,
//                           for a candidate who is optimal early, graded only when asked for
//                           (--scenario stretch) (scenario_table.hpp)
//   generate(seed, k)       the k-th generated scenario of a seed, named generated_name(seed, k)
//                           (generated.hpp), drawn within the ranges the brief promises
//   parameters(scenario)    its parameters, for the report
//   facts(scenario)         baseline, bound and best known, with their derivations, for any
//                           scenario, named or generated
//   hello(scenario)         the parameters the submission reads (sizes, budgets), for its client
//   check(state, sim)       the end-of-run checks of a run that returned: violations on `sim`
// and, where the exercise has them (exercise_of.hpp defaults each):
//   actors(scenario)        how many times train runs at once (one per rank; default one)
//   state(state, w)         the values the submission reads for free, sent with every batch
//   outstanding(state)      the unfinished work, for a deadlock report
//   add_figures(state, result)  the exercise's own figures (bubble fraction, staleness, ...)
// W::State serves each operation of the list in an overload of its own (remote.hpp):
//   void start(const wire::Forward& args, worlds::Serving& call);
// The submission's side of the same world is its client (worlds/<name>/client/).
// exercise_of.hpp turns any such W into the judge's Exercise.
#pragma once

#include <boost/mp11/list.hpp>
#include <concepts>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "../../protocol/described.hpp"
#include "../../protocol/frames.hpp"
#include "../../protocol/message.hpp"
#include "../../sim/simulator.hpp"
#include "../../verdict/result.hpp"
#include "facts.hpp"
#include "remote.hpp"
#include "scenario_table.hpp"

namespace overlap::worlds {

// State has a start overload for the operation Op (remote.hpp), and for every operation of the
// list Ops (an mp11 list).
template <typename State, typename Op>
concept Serves = requires(State& state, const Op& args, Serving& call) {
  state.start(args, call);
};
template <typename State, typename Ops>
inline constexpr bool serves_every = false;
template <typename State, typename... Op>
inline constexpr bool serves_every<State, boost::mp11::mp_list<Op...>> = (Serves<State, Op> && ...);

template <typename W>
concept World = requires(const typename W::Scenario& scenario, const typename W::State& finished,
                         sim::Simulator& sim) {
  { W::name } -> std::convertible_to<std::string_view>;
  typename W::Operations;
  requires serves_every<typename W::State, typename W::Operations>;
  { W::table() } -> std::same_as<const ScenarioTable<typename W::Scenario>&>;
  { W::generate(std::uint64_t{}, int{}) } -> std::same_as<typename W::Scenario>;
  { W::parameters(scenario) } -> std::same_as<std::vector<verdict::Parameter>>;
  { scenario.name } -> std::convertible_to<std::string>;
  { scenario.description } -> std::convertible_to<std::string>;
  { W::facts(scenario) } -> std::same_as<ScenarioFacts>;
  requires std::constructible_from<typename W::State, const typename W::Scenario&, sim::Simulator&>;
  { W::hello(scenario) } -> std::same_as<typename W::Hello>;
  requires protocol::described::Struct<typename W::Hello>;
  { W::check(finished, sim) } -> std::same_as<void>;
};

}  // namespace overlap::worlds
