#include "memory.hpp"

#include <fmt/format.h>

namespace overlap::sim {

void MemoryPool::charge(double amount, const std::string& what, Time now) {
  const bool was_within = used_ <= budget_;
  used_ += amount;
  if (used_ > peak_) peak_ = used_;
  if (was_within && used_ > budget_) {
    violations_->add("out-of-memory",
                     fmt::format("{}: {} holds {:g} {}, over its budget of {:g}", what, name_,
                                 used_, unit_, budget_),
                     now);
  }
}

void MemoryPool::release(double amount) { used_ -= amount; }

}  // namespace overlap::sim
