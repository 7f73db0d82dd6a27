// An exercise as the grader sees it: its name, its scenarios, and running a submission in one of
// them. Every world provides one through the world contract (world.hpp, run_world.hpp); the
// grader knows nothing else of worlds.
#pragma once

#include <memory>
#include <overlap/train.hpp>
#include <string>
#include <vector>

#include "../../result/result.hpp"

namespace overlap::worlds {

struct ScenarioInfo {
  std::string name;
  std::string description;
};

class Exercise {
 public:
  virtual ~Exercise() = default;
  virtual std::string name() const = 0;
  virtual std::vector<ScenarioInfo> scenarios() const = 0;
  // Runs the submission in `scenario` (a name from scenarios()) and checks it. May crash or
  // never return if the submission does: the grader calls it in a child process.
  virtual grade::ScenarioResult run(const std::string& scenario) const = 0;
  // The scenario's figures alone (baseline, bound, best known), for a run that left no result.
  virtual grade::ScenarioResult facts(const std::string& scenario) const = 0;
};

// The exercise whose submissions take `Api&` (Pipeline, Trainer, Cluster, Rank), running
// `submission`. Each world defines its own (worlds/<name>/exercise.cpp).
template <typename Api>
std::unique_ptr<Exercise> exercise_for(Entry<Api> submission);

}  // namespace overlap::worlds
