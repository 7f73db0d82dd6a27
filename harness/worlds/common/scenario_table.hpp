// A world's scenarios with names: the named ones, graded by default, and the stretch ones,
// graded only when asked for. Each world writes its table once (scenarios.cpp), a row a scenario
// in designated initializers that name only what differs from its Scenario's defaults.
#pragma once

#include <functional>
#include <mutex>
#include <stdexcept>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace overlap::worlds {

template <typename Scenario>
class ScenarioTable {
 public:
  // Fills in what a stretch row leaves to be computed (a planner's best known figures). It runs
  // the first time the stretch rows are read, so grading the named ones never waits for it.
  using Derive = std::function<void(Scenario&)>;

  // A name picks one scenario of either list, so no two share one.
  ScenarioTable(std::vector<Scenario> named, std::vector<Scenario> stretch, Derive derive = {})
      : named_(std::move(named)), stretch_(std::move(stretch)), derive_(std::move(derive)) {
    for (const auto* list : {&named_, &stretch_}) {
      for (const Scenario& s : *list) {
        const Scenario* first = in(named_, s.name);
        if (!first) first = in(stretch_, s.name);
        if (first != &s) throw std::logic_error("two scenarios named " + s.name);
      }
    }
  }

  // The named scenarios, default first.
  const std::vector<Scenario>& scenarios() const { return named_; }

  // Harder scenarios for a candidate who is optimal early (--scenario stretch).
  const std::vector<Scenario>& stretch() const {
    std::call_once(derived_, [this] {
      if (derive_) {
        for (Scenario& s : stretch_) derive_(s);
      }
    });
    return stretch_;
  }

  // The named or stretch scenario called `name`; none: nullptr.
  const Scenario* find(std::string_view name) const {
    if (const Scenario* s = in(named_, name)) return s;
    return in(stretch(), name);
  }

 private:
  static const Scenario* in(const std::vector<Scenario>& list, std::string_view name) {
    for (const Scenario& s : list) {
      if (s.name == name) return &s;
    }
    return nullptr;
  }

  std::vector<Scenario> named_;
  mutable std::vector<Scenario> stretch_;  // derived in place, once
  Derive derive_;
  mutable std::once_flag derived_;
};

}  // namespace overlap::worlds
