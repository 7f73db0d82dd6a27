// Which scenarios a grade runs: the named ones and the generated set of a seed, one scenario or
// one set of them (the stretch set only when asked for), or exactly those of an earlier JSON
// report (a replay).
#pragma once

#include <cstdint>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

#include "../worlds/common/exercise.hpp"
#include "../worlds/common/generated.hpp"

namespace overlap::judge {

struct SelectionRequest {
  // A name, "named", "generated" or "stretch"; named and generated when absent.
  std::optional<std::string> scenario;
  std::uint64_t seed = worlds::kPublicSeed;
  int generated = worlds::kDefaultGenerated;  // how many of the seed's scenarios
  std::optional<std::string> replay;          // a JSON report whose scenarios to grade again
};

struct Selection {
  std::uint64_t seed = 0;
  std::vector<worlds::ScenarioInfo> scenarios;
};

// A request the user must correct; the message says how.
struct UsageError : std::runtime_error {
  using std::runtime_error::runtime_error;
};

inline constexpr int kMaxGenerated = 1000;

// Every name --scenario takes, for messages: the named and stretch scenarios, seed-S-k, named,
// generated, stretch.
std::string valid_scenarios(const worlds::Exercise& exercise);

// Throws UsageError for a request that names nothing gradable; any other exception is the
// judge's own failure (a world that cannot generate its scenarios).
Selection select_scenarios(const worlds::Exercise& exercise, const SelectionRequest& request);

}  // namespace overlap::judge
