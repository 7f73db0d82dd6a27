// Any world (world.hpp) as the grader's Exercise: the one way every exercise runs a scenario.
#pragma once

#include <memory>
#include <stdexcept>
#include <string>
#include <vector>

#include "exercise.hpp"
#include "launch.hpp"
#include "run_record.hpp"
#include "scenario_list.hpp"
#include "world.hpp"

namespace overlap::worlds {

template <World W>
class WorldExercise final : public Exercise {
 public:
  explicit WorldExercise(Entry<typename W::Api> submission) : submission_(submission) {}

  std::string name() const override { return std::string(W::name); }

  std::vector<ScenarioInfo> scenarios() const override {
    std::vector<ScenarioInfo> out;
    for (const auto& s : W::scenarios()) out.push_back({s.name, s.description});
    return out;
  }

  grade::ScenarioResult facts(const std::string& name) const override {
    return record_facts(W::facts(find(name)));
  }

  // Build the world, run the submission on it, check what it left, record it all.
  grade::ScenarioResult run(const std::string& name) const override {
    const auto& scenario = find(name);
    const ScenarioFacts facts = W::facts(scenario);
    sim::Simulator sim;
    typename W::State state(scenario, sim);
    const RunOutcome outcome =
        run_submission(sim, submission_, W::actors(state), facts.baseline_ms);
    add_run_end_violation(sim, outcome, W::outstanding(state));
    if (outcome.completed()) W::check(state, sim);
    grade::ScenarioResult result = record_run(sim, outcome, facts);
    W::add_figures(state, result);
    return result;
  }

 private:
  static const typename W::Scenario& find(const std::string& name) {
    if (const auto* scenario = find_by_name(W::scenarios(), name)) return *scenario;
    throw std::invalid_argument("no scenario named " + name);
  }

  Entry<typename W::Api> submission_;
};

}  // namespace overlap::worlds

// Makes `W` the exercise of its API (exercise.hpp's exercise_for): one line, at global scope, in
// each world's exercise.cpp.
#define OVERLAP_REGISTER_WORLD(W)                                                   \
  template <>                                                                       \
  std::unique_ptr<overlap::worlds::Exercise> overlap::worlds::exercise_for<W::Api>( \
      overlap::Entry<W::Api> submission) {                                          \
    return std::make_unique<overlap::worlds::WorldExercise<W>>(submission);         \
  }
