// Virtual time: integer microseconds, so that sums and ties are exact.
#pragma once

#include <cmath>
#include <cstdint>

namespace overlap::sim {

using Time = std::int64_t;  // microseconds of virtual time

inline Time from_ms(double milliseconds) {
  return static_cast<Time>(std::llround(milliseconds * 1000));
}
inline double to_ms(Time t) { return static_cast<double>(t) / 1000.0; }

}  // namespace overlap::sim
