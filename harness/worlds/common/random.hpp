// Deterministic synthetic data: a number in [-1, 1) from a seed and any tuple of integers
// (splitmix64 folded over them), so that a world's data depends on its seed alone.
#pragma once

#include <cstdint>

namespace overlap::worlds {

inline std::uint64_t mix(std::uint64_t x) {
  x += 0x9e3779b97f4a7c15ULL;
  x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ULL;
  x = (x ^ (x >> 27)) * 0x94d049bb133111ebULL;
  return x ^ (x >> 31);
}

template <typename... Key>
double uniform(std::uint64_t seed, Key... key) {
  std::uint64_t h = seed;
  ((h = mix(h ^ static_cast<std::uint64_t>(key))), ...);
  return static_cast<double>(h >> 11) / static_cast<double>(1ULL << 53) * 2.0 - 1.0;
}

}  // namespace overlap::worlds
