// What a world knows of a scenario before any run: the starter's makespan, a proven lower bound
// and the best known makespan, each with how it was derived; and, where a schedule that knows
// more than a program is told does better, that hindsight figure.
#pragma once

#include <fmt/format.h>

#include <string>
#include <string_view>

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
  double hindsight_ms = 0;       // 0: none below the best known
  std::string hindsight_note{};  // what it knows that a program is not told, for the candidate
};

// For the interviewer's note on the best known: where it lies more than 5 % above the bound, how
// far, and which constraint of the scenario the bound does not model.
inline std::string gap_to_bound(double best_known_ms, double bound_ms,
                                std::string_view unmodelled) {
  if (best_known_ms <= 1.05 * bound_ms) return "";
  return fmt::format("; {:.0f} % above the bound, which does not model {}",
                     100 * (best_known_ms / bound_ms - 1), unmodelled);
}

}  // namespace overlap::worlds
