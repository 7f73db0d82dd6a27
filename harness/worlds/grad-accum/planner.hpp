// The schedules the world plans offline, for any scenario: training at full speed (each step's
// micro-batches split over the workers by speed, a check's snapshot taken as soon as a slot is
// free while the next step's gradients are computed), checks validated in check order on the
// validators an assignment picks, and the stop the moment the deciding check and every earlier
// one are in. The best rule a program can follow is the scenario's best known makespan; the best
// assignment of all, which knows what a program is not told, is its hindsight figure.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "scenarios.hpp"

namespace overlap::grad_accum {

// Which validator takes each check, by a rule a submission can follow without the validators'
// speeds or the deciding check: when the check's snapshot is taken, from what it has seen so far.
// The search below knows both: its best is the hindsight figure, which no tier uses.
enum class Assignment {
  free_first,   // the validator free first; among idle ones, the one idle longest (then by index)
  lowest_idle,  // the idle validator of the lowest index; if none is idle, the one free first
  round_robin,  // check c to validator (c - 1) mod V, waiting for it if it is busy
};

// When the step after a check computes its gradients: while the check's snapshot waits for a slot
// (overlapped), or only once it is taken (after_snapshot: slower training, but a check's
// snapshot comes later, when a faster validator may be free).
enum class Training { overlapped, after_snapshot };

// One planned run, in milliseconds from the start.
struct Schedule {
  double makespan_ms = 0;            // when the deciding check and every earlier one are in
  std::vector<double> applied_ms;    // step s's optimizer step ends at [s - 1]
  std::vector<double> snapshot_ms;   // check c's snapshot is taken at [c - 1]
  std::vector<double> validated_ms;  // check c's result is in at [c - 1]
  std::vector<int> validator;        // check c is validated on validator [c - 1]

  // Whether a gradient was being computed at `t` (some step's gradients had started and not all
  // finished), and whether results came in out of check order up to the decision.
  bool computing_at(const Scenario& s, double t) const;
  bool results_out_of_order(int decisive_checks) const;
};

// Training to the step limit, every check of it assigned as `how` says; the makespan counts the
// first `decisive_checks`.
Schedule plan(const Scenario& s, int decisive_checks, Assignment how,
              Training training = Training::overlapped);

struct BestKnown {
  double ms = 0;
  std::string note;  // which schedule reaches it, for interviewers
};

// The best planned makespan over the rules above, training overlapped: what scenarios are drawn
// on, so that adding a rule does not change what is drawn.
double best_by_rule(const Scenario& s, const Decision& d);

// The best known: the best rule under either training, which a program reaches with what the API
// tells it (each is a program of the kit: the reference, tests/grad-accum/designs and styles).
BestKnown best_known(const Scenario& s, const Decision& d);

// The best assignment of the first `decisive_checks` checks to validators found by a branch and
// bound over every assignment (a check may wait for a busy validator), starting from the rules.
struct Searched {
  double makespan_ms = 0;
  std::vector<int> validator;      // check c to validator [c - 1]
  std::optional<Assignment> rule;  // set when a rule reaches it: no search did better
  bool exhaustive = true;          // false: the node limit cut the search short
};
Searched search_assignments(const Scenario& s, int decisive_checks,
                            std::int64_t node_limit = 200'000);

// The search's best, when it beats every rule: it gives checks to validators knowing their
// speeds and which check decides. The note says how, for interviewers.
std::optional<BestKnown> hindsight(const Scenario& s, const Decision& d);

// What the hindsight schedule knows that a program is not told: one line for the candidate.
inline constexpr const char* kHindsightKnows =
    "a schedule that knows each validator's speed and which check decides, which a program is "
    "not told";

}  // namespace overlap::grad_accum
