// Looking up a world's scenario by name.
#pragma once

#include <string>
#include <vector>

namespace overlap::worlds {

template <typename Scenario>
const Scenario* find_by_name(const std::vector<Scenario>& all, const std::string& name) {
  for (const Scenario& s : all) {
    if (s.name == name) return &s;
  }
  return nullptr;
}

}  // namespace overlap::worlds
