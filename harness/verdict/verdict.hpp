// Verdict tiers, the same for every exercise:
//   fail     the run broke an invariant, got a wrong result, deadlocked, crashed or timed out
//   slow     correct, but closes less than half the gap from the baseline to the best known
//   pass     correct, and closes at least half of that gap
//   optimal  correct, and within 2 % of the scenario's best known makespan
#pragma once

#include <string>
#include <vector>

#include "result.hpp"

namespace overlap::verdict {

constexpr double kOptimalSlack = 0.02;
constexpr double kPassGapFraction = 0.5;

// Fills correct, speedup, efficiency, the thresholds and the verdict from the run's figures.
void rate(ScenarioResult& result);

// The worst tier over all scenarios.
Tier overall(const std::vector<ScenarioResult>& results);

const char* tier_name(Tier tier);     // "fail", "slow", "pass", "optimal"
std::string tier_heading(Tier tier);  // "FAIL", "SLOW", "PASS", "OPTIMAL"

// 0 when every scenario is pass or better, 1 otherwise.
int exit_code(Tier overall);

}  // namespace overlap::verdict
