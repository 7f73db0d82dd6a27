// Broken invariants, each with a kind that tests and reports key on.
#pragma once

#include <string>
#include <vector>

#include "time.hpp"

namespace overlap::sim {

struct Violation {
  std::string kind;  // "contention", "out-of-memory", "deadlock", ...
  std::string message;
  Time at = 0;
};

// Keeps the first `kCap` violations in full, and the first of every kind after that, and counts
// the rest, so that a runaway submission cannot flood the report or hide a diagnosis.
class Violations {
 public:
  static constexpr std::size_t kCap = 20;

  void add(std::string kind, std::string message, Time at);
  const std::vector<Violation>& list() const { return list_; }
  std::size_t total() const { return total_; }
  bool empty() const { return total_ == 0; }

 private:
  std::vector<Violation> list_;
  std::size_t total_ = 0;
};

}  // namespace overlap::sim
