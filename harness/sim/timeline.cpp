#include "timeline.hpp"

#include <fmt/format.h>

namespace overlap::sim {

std::string OpRecord::describe() const {
  return info.detail.empty() ? info.kind : fmt::format("{}({})", info.kind, info.detail);
}

std::string OpRecord::until() const {
  return status == OpStatus::running ? "and never ended" : fmt::format("until {:g} ms", to_ms(end));
}

}  // namespace overlap::sim
