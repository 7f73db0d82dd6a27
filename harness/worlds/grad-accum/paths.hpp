// The paths of the exercise a run took, read from what happened in it: where the decision
// landed, what decided, whether the validators differ in speed and their results came back out
// of check order. Generated scenarios are checked to reach every one of them.
#pragma once

#include <string>
#include <vector>

#include "../../verdict/result.hpp"
#include "scenarios.hpp"
#include "state.hpp"

namespace overlap::grad_accum {

// `timeline` is the run's, as recorded for the report.
std::vector<std::string> paths_taken(const detail::State& world, const Decision& decision,
                                     const std::vector<verdict::TimelineEvent>& timeline);

}  // namespace overlap::grad_accum
