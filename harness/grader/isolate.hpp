// Running one scenario in a child process, so that a submission that crashes, throws from a
// handler or loops forever costs that scenario alone, and the grader never hangs.
#pragma once

#include <string>

#include "../worlds/common/exercise.hpp"

namespace overlap::grade {

// Runs `scenario` in a forked child, waiting at most `real_seconds` of real time. A crash, a
// timeout or an unreadable answer becomes a failed result, with the scenario's figures and a
// violation that says what happened. With OVERLAP_IN_PROCESS=1 in the environment it runs in
// this process instead (for gdb).
ScenarioResult run_isolated(const worlds::Exercise& exercise, const std::string& scenario,
                            double real_seconds);

}  // namespace overlap::grade
