// Turning a finished simulation into the grader's result: what every world reports the same way
// (makespan, devices, memory, timeline, violations, and why a run did not finish).
#pragma once

#include <exception>
#include <string>

#include "../../core/simulator.hpp"
#include "../../result/result.hpp"
#include "facts.hpp"

namespace overlap::worlds {

struct RunOutcome {
  sim::RunEnd end = sim::RunEnd::finished;
  bool returned = false;      // train returned (on every rank) or threw
  std::exception_ptr thrown;  // what it threw, if it did

  bool completed() const { return returned && !thrown; }  // the result is there to check
};

// Adds a violation for a run that deadlocked, hit a limit or threw. `outstanding` is the world's
// account of unfinished work, for the deadlock message.
void add_run_end_violation(sim::Simulator& sim, const RunOutcome& outcome,
                           const std::string& outstanding);

// The scenario's facts alone, as a result with no run.
grade::ScenarioResult record_facts(const ScenarioFacts& facts);

// The grader's result: the scenario's facts, then makespan, device use, memory peaks, the
// timeline (charted whole) and the violations of the run.
grade::ScenarioResult record_run(const sim::Simulator& sim, const RunOutcome& outcome,
                                 const ScenarioFacts& facts);

}  // namespace overlap::worlds
