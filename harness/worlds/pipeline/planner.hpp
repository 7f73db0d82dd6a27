// The pipeline planner: one training step scheduled offline on a scenario's exact times (plain
// list scheduling in integer microseconds: no Asio, no simulator), family by family, and the best
// of them, which is the scenario's best known step.
//
// Every schedule here runs each stage's forwards in micro-batch order and its backwards in
// micro-batch order, so a stage's schedule is only how its forwards and backwards interleave.
// Steps cannot overlap (stage 0's next forward waits for its own last backward and optimizer
// step), so a run is `steps` times one step.
#pragma once

#include <string>
#include <vector>

#include "../../sim/time.hpp"
#include "scenarios.hpp"

namespace overlap::pipeline::planner {

// One stage's operations in the order it runs them: true a forward, false a backward.
using StageOrder = std::vector<char>;
using Orders = std::vector<StageOrder>;

struct Step {
  sim::Time makespan = -1;  // -1: the orders deadlock or break a stash budget
  Orders orders;            // what each stage ran, in order
  std::vector<int> peak_stashes;
};

// Runs fixed per-stage orders, each operation as early as its stage and its input allow.
Step run_orders(const Scenario& s, Orders orders);

// 1F1B: stage s runs warmup[s] forwards, then alternates one forward and one backward, then the
// remaining backwards (warmup[s] = p - s - 1 is the classic schedule, p - s stashes).
Orders one_f_one_b(const Scenario& s, const std::vector<int>& warmup);
// GPipe in waves: `wave` forwards, then their backwards, until the step is done.
Orders gpipe_waves(const Scenario& s, int wave);

// Self-timed schedules: no plan, each idle stage picks among what has arrived, as a program that
// does not know the times does. A forward needs a free stash below caps[s].
enum class Rule {
  alternate,       // forwards up to 1F1B's depth, then alternate, else whatever is ready
  backward_first,  // a ready backward, else a forward
  forward_first,   // a forward while stashes allow, else a backward
  oldest_first,    // whichever input arrived first
};
Step run_self_timed(const Scenario& s, Rule rule, const std::vector<int>& caps);

// The best step the families below reach, and which one reached it:
//   1F1B with the classic warm-up and deeper ones, within each stage's budget;
//   each self-timed rule, capped by the budget and by 1F1B's depth;
//   GPipe in waves of every size the budgets allow;
//   every interleaving, where there are few; otherwise swaps of neighbouring operations from the
//   best so far, while they help;
//   wide only: 1F1B with each stage's warm-up varied in turn, while that helps; then the swaps
//   from each self-timed schedule and from the best 1F1B too.
// Narrow is what drawn scenarios are accepted on, so that widening the search does not change
// what is drawn.
struct BestKnown {
  sim::Time step = 0;
  std::string note;
};
enum class Breadth { narrow, wide };
BestKnown best_known(const Scenario& s, Breadth breadth = Breadth::wide);

}  // namespace overlap::pipeline::planner
