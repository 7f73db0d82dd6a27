// Turning a finished simulation into the grader's result: what every world reports the same way
// (makespan, devices, memory, timeline, violations, and why a run did not finish).
#pragma once

#include <exception>
#include <string>

#include "../../core/simulator.hpp"
#include "../../grader/result.hpp"

namespace overlap::worlds {

struct RunOutcome {
  sim::RunEnd end = sim::RunEnd::finished;
  bool returned = false;      // train returned or threw
  std::exception_ptr thrown;  // what it threw, if it did
};

// Adds a violation for a run that deadlocked, hit a limit or threw. `outstanding` is the world's
// account of unfinished work, for the deadlock message.
void add_run_end_violation(sim::Simulator& sim, const RunOutcome& outcome,
                           const std::string& outstanding);

// Copies makespan, device use, memory peaks, the timeline and the violations into `result`.
void record_run(const sim::Simulator& sim, const RunOutcome& outcome,
                grade::ScenarioResult& result);

}  // namespace overlap::worlds
