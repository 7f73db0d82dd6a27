// The one interface between the grader and a world: its scenarios, and running the submission
// in one of them (world, oracle, checks and bound are the world's business).
#pragma once

#include <string>
#include <vector>

#include "result.hpp"

namespace overlap::grade {

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
  virtual ScenarioResult run(const std::string& scenario) const = 0;
};

}  // namespace overlap::grade
