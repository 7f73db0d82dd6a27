// Any world (world.hpp) as the judge's Exercise: the one way every exercise runs a scenario.
#pragma once

#include <boost/mp11/algorithm.hpp>
#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

#include "../../protocol/described.hpp"
#include "../../protocol/frames.hpp"
#include "../../protocol/operation.hpp"
#include "exercise.hpp"
#include "generated.hpp"
#include "lock_step.hpp"
#include "run_record.hpp"
#include "world.hpp"

namespace overlap::worlds {

template <World W>
class ExerciseOf final : public Exercise {
  static constexpr auto& kOperations = protocol::operation_table<typename W::Operations>;

 public:
  std::string name() const override { return std::string(W::name); }

  std::vector<ScenarioInfo> scenarios() const override { return infos(W::table().scenarios()); }
  std::vector<ScenarioInfo> stretch() const override { return infos(W::table().stretch()); }

  std::vector<ScenarioInfo> generated(std::uint64_t seed, int count) const override {
    std::vector<ScenarioInfo> out;
    for (int k = 0; k < count; ++k) {
      const auto& s = generated_scenario(seed, k);
      out.push_back({s.name, s.description});
    }
    return out;
  }

  std::optional<ScenarioInfo> find(const std::string& name) const override {
    const auto scenario = lookup(name);
    if (!scenario) return std::nullopt;
    return ScenarioInfo{scenario->name, scenario->description};
  }

  using Exercise::run;

  // Build the world, start the submission program and serve it on the world, check what it
  // left, record it all. The submission gets 20 times the baseline's virtual time, and 5 million
  // events.
  verdict::ScenarioResult run(const std::string& name,
                              const std::function<Link&()>& start) const override {
    const auto found = lookup(name);
    if (!found) throw std::invalid_argument("no scenario named " + name);
    const typename W::Scenario& scenario = *found;
    const ScenarioFacts facts = W::facts(scenario);
    sim::Simulator sim;
    sim.set_limits(sim::from_ms(20 * facts.baseline_ms), 5'000'000);
    typename W::State state(scenario, sim);
    Remote remote;
    const typename W::Hello told = W::hello(scenario);
    protocol::Writer hello(static_cast<std::uint16_t>(protocol::Frame::hello));
    hello.integer(protocol::kVersion).text(W::name);
    protocol::write(hello, told);
    // A call's arguments are read as its operation's (wire.hpp), each within its range, and
    // handed to the State's overload for it.
    using Operations = typename W::Operations;
    auto serve = [&](Call& call) {
      if (call.op >= boost::mp11::mp_size<Operations>::value) {
        throw protocol::ProtocolError(std::string(W::name) + " has no operation " +
                                      std::to_string(call.op));
      }
      try {
        boost::mp11::mp_with_index<boost::mp11::mp_size<Operations>::value>(call.op, [&](auto i) {
          using Op = boost::mp11::mp_at_c<Operations, i>;
          Serving serving{call, remote};
          state.start(call.read<Op, W::ranges>(told), serving);
        });
      } catch (const BadHandle& e) {
        call.args.skip_rest();
        remote.refuse(sim, call.number, kOperations[call.op], e.what());
      }
    };
    // The optional hooks (world.hpp), defaulted: one actor, no state, nothing to name in a
    // deadlock report, no figures of the exercise's own.
    int actors = 1;
    if constexpr (requires { W::actors(scenario); }) actors = W::actors(scenario);
    auto send_state = [&](protocol::Writer& w) {
      if constexpr (requires { W::state(state, w); }) W::state(state, w);
    };
    const RunOutcome outcome =
        lock_step(sim, start(), remote, hello, {actors, kOperations, serve, send_state});
    std::string outstanding;
    if constexpr (requires { W::outstanding(state); }) outstanding = W::outstanding(state);
    add_run_end_violation(sim, outcome, outstanding);
    add_unfinished_work(sim, outcome);
    if (outcome.completed()) W::check(state, sim);
    verdict::ScenarioResult result = record_run(sim, outcome, facts);
    result.parameters = W::parameters(scenario);
    if constexpr (requires { W::add_figures(state, result); }) W::add_figures(state, result);
    return result;
  }

 private:
  static std::vector<ScenarioInfo> infos(const std::vector<typename W::Scenario>& list) {
    std::vector<ScenarioInfo> out;
    for (const auto& s : list) out.push_back({s.name, s.description});
    return out;
  }

  // Drawn once per exercise object: choosing the scenarios and running them need the same one,
  // and a draw plans its figures (the 20 % rule), which takes milliseconds.
  const typename W::Scenario& generated_scenario(std::uint64_t seed, int k) const {
    const std::string name = generated_name(seed, k);
    auto it = generated_.find(name);
    if (it == generated_.end()) it = generated_.emplace(name, W::generate(seed, k)).first;
    return it->second;
  }

  std::optional<typename W::Scenario> lookup(const std::string& name) const {
    if (const auto* scenario = W::table().find(name)) return *scenario;
    if (const auto generated = parse_generated_name(name)) {
      return generated_scenario(generated->seed, generated->k);
    }
    return std::nullopt;
  }

  mutable std::map<std::string, typename W::Scenario> generated_;
};

}  // namespace overlap::worlds

// Makes `W` the exercise of its name (exercise.hpp's exercise_named): one line, at global
// scope, in each world's contract.cpp. `ident` is the name as an identifier (grad_accum).
#define OVERLAP_REGISTER_WORLD(W, ident)                               \
  std::unique_ptr<overlap::worlds::Exercise> overlap_world_##ident() { \
    return std::make_unique<overlap::worlds::ExerciseOf<W>>();         \
  }
