#include "timeline.hpp"

#include <fmt/format.h>

namespace overlap::sim {

std::string OpRecord::describe() const {
  return info.detail.empty() ? info.kind : fmt::format("{}({})", info.kind, info.detail);
}

}  // namespace overlap::sim
