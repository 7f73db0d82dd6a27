// Memory charged against a budget: stashed activations, buffers, snapshots, ...
#pragma once

#include <string>

#include "violation.hpp"

namespace overlap::sim {

class MemoryPool {
 public:
  MemoryPool(std::string name, std::string unit, double budget, Violations& violations)
      : name_(std::move(name)), unit_(std::move(unit)), budget_(budget), violations_(&violations) {}

  // Holds `amount` more from now on. Going over the budget is an out-of-memory violation at
  // time `now`, reported once per excursion over the budget; `what` names the cause.
  void charge(double amount, const std::string& what, Time now);
  void release(double amount);

  const std::string& name() const { return name_; }
  const std::string& unit() const { return unit_; }
  double budget() const { return budget_; }
  double used() const { return used_; }
  double peak() const { return peak_; }

 private:
  std::string name_;
  std::string unit_;
  double budget_;
  double used_ = 0;
  double peak_ = 0;
  Violations* violations_;
};

}  // namespace overlap::sim
