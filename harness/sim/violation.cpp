#include "violation.hpp"

#include <algorithm>

namespace overlap::sim {

void Violations::add(std::string kind, std::string message, Time at) {
  ++total_;
  const bool new_kind =
      std::none_of(list_.begin(), list_.end(), [&](const Violation& v) { return v.kind == kind; });
  if (list_.size() < kCap || new_kind) list_.push_back({std::move(kind), std::move(message), at});
}

}  // namespace overlap::sim
