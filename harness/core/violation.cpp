#include "violation.hpp"

namespace overlap::sim {

void Violations::add(std::string kind, std::string message, Time at) {
  ++total_;
  if (list_.size() < kCap) list_.push_back({std::move(kind), std::move(message), at});
}

}  // namespace overlap::sim
