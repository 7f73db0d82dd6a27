// Turning a finished simulation into the grader's result: what every world reports the same way
// (makespan, devices, memory, timeline, violations, and why a run did not finish).
#pragma once

#include <optional>
#include <string>
#include <utility>

#include "../../sim/simulator.hpp"
#include "../../verdict/result.hpp"
#include "facts.hpp"

namespace overlap::worlds {

// What the submission program said it threw: from train (actor 0, 1, ...) or from a completion
// handler (actor -1).
struct Thrown {
  int actor = 0;
  std::string what;
  bool echo = false;  // it carries on a refused call's error (a misuse, a cancellation)
};

struct RunOutcome {
  sim::RunEnd end = sim::RunEnd::finished;
  bool returned = false;          // train returned (on every rank)
  sim::Time returned_at = 0;      // when it did: the makespan
  std::size_t ops_at_return = 0;  // the operations begun by then
  std::optional<Thrown> thrown;   // what the submission threw, if it did
  // The first call after the return that began no operation: its operation's name, and when.
  std::optional<std::pair<std::string, sim::Time>> late_call;
  // The program failed outside the simulation: a violation's kind ("crash", "time-limit",
  // "protocol") and its message.
  std::optional<std::pair<std::string, std::string>> failure;

  bool completed() const { return returned && !thrown && !failure; }  // there to check
};

// Adds an `unfinished-work` violation for each operation of a returned run that ran past the
// return or began after it, and one for the first call after the return that began none.
void add_unfinished_work(sim::Simulator& sim, const RunOutcome& outcome);

// Adds a violation for a run that deadlocked, hit a limit, threw or failed. `outstanding` is the
// world's account of unfinished work, for the deadlock message.
void add_run_end_violation(sim::Simulator& sim, const RunOutcome& outcome,
                           const std::string& outstanding);

// The grader's result: the scenario's facts, then makespan, device use, memory peaks, the
// timeline (charted whole) and the violations of the run.
verdict::ScenarioResult record_run(const sim::Simulator& sim, const RunOutcome& outcome,
                                   const ScenarioFacts& facts);

}  // namespace overlap::worlds
