// Verdict tiers, the same for every exercise:
//   fail     the run broke an invariant, got a wrong result, deadlocked, crashed or timed out
//   slow     correct, but closes less than half the gap from the baseline to the best known
//   pass     correct, and closes at least half of that gap
//   optimal  correct, and within 2 % of the scenario's best known makespan
// The best known is what a program can reach with what the API tells it; a faster schedule that
// needs more is shown as the scenario's hindsight figure, and no tier uses it.
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

// The hindsight figure in one sentence, for the reports: "2950 ms, by a schedule that knows ...;
// tiers are graded against the best known".
std::string hindsight_sentence(const ScenarioResult& result);

// 0 when every scenario is pass or better, 1 otherwise.
int exit_code(Tier overall);

}  // namespace overlap::verdict
