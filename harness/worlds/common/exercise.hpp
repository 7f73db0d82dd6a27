// An exercise as the judge sees it: its name, its scenarios, and running a submission program
// in one of them. Every world provides one through the world contract (world.hpp,
// exercise_of.hpp); the judge knows nothing else of worlds.
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "../../verdict/result.hpp"
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
  // Runs the submission program in `scenario` (a name find() knows) and checks it: the scenario
  // is planned and its world built first, then `start` starts the program and gives its link,
  // so that the link's real-time deadline covers the program's run and the judge's work on its
  // calls, not the judge's own preparation. Whatever the program does, this returns: the
  // deadline bounds every wait and every loop. A thrown exception is the judge's own failure.
  virtual verdict::ScenarioResult run(const std::string& scenario,
                                      const std::function<Link&()>& start) const = 0;
  // The same on a program already started.
  verdict::ScenarioResult run(const std::string& scenario, Link& link) const {
    return run(scenario, [&link]() -> Link& { return link; });
  }
};

// The exercise of that name (exercises/manifest.tsv), or null; and every exercise's name.
std::unique_ptr<Exercise> exercise_named(const std::string& name);
std::vector<std::string> exercise_names();

}  // namespace overlap::worlds
