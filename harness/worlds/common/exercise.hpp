// An exercise as the grader sees it: its name, its scenarios, and running a submission program
// in one of them. Every world provides one through the world contract (world.hpp,
// run_world.hpp); the grader knows nothing else of worlds.
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "../../result/result.hpp"
#include "link.hpp"

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
  // The stretch scenarios: for a fast solver, graded only when asked for.
  virtual std::vector<ScenarioInfo> stretch() const = 0;
  // The first `count` generated scenarios of `seed` (generated.hpp).
  virtual std::vector<ScenarioInfo> generated(std::uint64_t seed, int count) const = 0;
  // A named or stretch scenario, or a generated one by its name ("seed-7-2"); nothing for any
  // other name.
  virtual std::optional<ScenarioInfo> find(const std::string& name) const = 0;
  // Runs the submission program at the other end of `link` in `scenario` (a name find()
  // knows) and checks it. Whatever the program does, this returns: the link's deadline
  // bounds every wait. A thrown exception is the judge's own failure.
  virtual grade::ScenarioResult run(const std::string& scenario, Link& link) const = 0;
};

// The exercise of that name (exercises/manifest.tsv), or null; and every exercise's name.
std::unique_ptr<Exercise> exercise_named(const std::string& name);
std::vector<std::string> exercise_names();

}  // namespace overlap::worlds
