// What a world knows of a scenario before any run: the starter's makespan, a proven lower bound
// and the best known makespan, each with how it was derived.
#pragma once

#include <string>

namespace overlap::worlds {

struct Bound {
  double ms = 0;
  std::string derivation;
};

struct ScenarioFacts {
  std::string name;
  std::string description;
  double baseline_ms = 0;    // the starter's makespan
  Bound bound;               // no schedule is faster
  double best_known_ms = 0;  // the best schedule known: `optimal` is graded against it
  std::string best_known_note;
};

}  // namespace overlap::worlds
