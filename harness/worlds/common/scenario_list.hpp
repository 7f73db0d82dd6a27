// A world's scenario list, as the grader sees it: names and descriptions, and lookup by name.
#pragma once

#include <string>
#include <vector>

#include "../../grader/exercise.hpp"

namespace overlap::worlds {

template <typename Scenario>
const Scenario* find_by_name(const std::vector<Scenario>& all, const std::string& name) {
  for (const Scenario& s : all) {
    if (s.name == name) return &s;
  }
  return nullptr;
}

template <typename Scenario>
std::vector<grade::ScenarioInfo> infos(const std::vector<Scenario>& all) {
  std::vector<grade::ScenarioInfo> out;
  for (const Scenario& s : all) out.push_back({s.name, s.description});
  return out;
}

}  // namespace overlap::worlds
