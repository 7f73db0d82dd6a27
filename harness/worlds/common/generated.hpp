// Generated scenarios: the k-th scenario of a seed, drawn by its world (W::generate) within the
// ranges its brief promises, named "seed-S-k" so that the name alone replays it.
#pragma once

#include <charconv>
#include <cmath>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

#include "random.hpp"

namespace overlap::worlds {

// What `grade` draws when no --seed is given: public, so interviewers pass a seed of their own.
inline constexpr std::uint64_t kPublicSeed = 1;
inline constexpr int kDefaultGenerated = 4;

struct GeneratedName {
  std::uint64_t seed = 0;
  int k = 0;
};

inline std::string generated_name(std::uint64_t seed, int k) {
  return "seed-" + std::to_string(seed) + "-" + std::to_string(k);
}

// "seed-S-k" with S and k written as generated_name writes them (no sign, no leading zero);
// otherwise nothing.
inline std::optional<GeneratedName> parse_generated_name(std::string_view name) {
  constexpr std::string_view prefix = "seed-";
  if (!name.starts_with(prefix)) return std::nullopt;
  const std::string_view rest = name.substr(prefix.size());
  const auto dash = rest.find('-');
  if (dash == std::string_view::npos) return std::nullopt;
  GeneratedName out;
  auto whole = [](std::string_view digits, auto& value) {
    const auto [end, ec] = std::from_chars(digits.data(), digits.data() + digits.size(), value);
    return ec == std::errc{} && end == digits.data() + digits.size();
  };
  if (!whole(rest.substr(0, dash), out.seed) || !whole(rest.substr(dash + 1), out.k) || out.k < 0 ||
      generated_name(out.seed, out.k) != name) {
    return std::nullopt;
  }
  return out;
}

// The random draws of one attempt at one generated scenario: a stream of its own per
// (seed, k, attempt), so scenario k does not change when another is redrawn.
class Draw {
 public:
  Draw(std::uint64_t seed, int k, int attempt)
      : state_(mix(mix(mix(seed) ^ static_cast<std::uint64_t>(k)) ^
                   static_cast<std::uint64_t>(attempt))) {}

  // In [0, 1).
  double unit() {
    state_ = mix(state_);
    return static_cast<double>(state_ >> 11) / static_cast<double>(1ULL << 53);
  }
  // An integer in [lo, hi].
  int integer(int lo, int hi) {
    return lo + static_cast<int>(unit() * static_cast<double>(hi - lo + 1));
  }
  bool chance(double p) { return unit() < p; }
  // A duration in [lo, hi] ms, in whole microseconds as the simulator counts them: almost never
  // a round number, so no two events coincide by accident.
  double ms(double lo, double hi) {
    return std::round((lo + unit() * (hi - lo)) * 1000.0) / 1000.0;
  }
  std::uint64_t seed() { return state_ = mix(state_); }

 private:
  std::uint64_t state_;
};

}  // namespace overlap::worlds
