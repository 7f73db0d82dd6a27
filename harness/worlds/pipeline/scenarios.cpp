#include "scenarios.hpp"

#include <fmt/format.h>

#include <algorithm>

#include "planner.hpp"

namespace overlap::pipeline {

const worlds::ScenarioTable<Scenario>& scenario_table() {
  static const worlds::ScenarioTable<Scenario> table{
      {
          {.name = "default",
           .description =
               "4 stages, 8 micro-batches, forward 10 ms, backward 20 ms, 4 stashes per stage",
           .forward_ms = {10, 10, 10, 10},
           .backward_ms = {20, 20, 20, 20},
           .stashes = {4, 4, 4, 4},
           .seed = 11,
           .best_known_step_ms = 330,
           .best_known_note = "the bound, reached by 1F1B within 4 stashes per stage"},
          {.name = "imbalanced",
           .description = "4 stages, 8 micro-batches, forward 10, 10, 10, 15 ms, backward 20, 20, "
                          "20, 30 ms, 4 stashes per stage",
           .forward_ms = {10, 10, 10, 15},
           .backward_ms = {20, 20, 20, 30},
           .stashes = {4, 4, 4, 4},
           .seed = 12,
           .best_known_step_ms = 450,
           .best_known_note =
               "the bound, reached by 1F1B: the slowest stage is last, so it can be kept busy"},
          {.name = "deep",
           .description =
               "8 stages, 32 micro-batches, forward 10 ms, backward 20 ms, 8 stashes per stage",
           .forward_ms = std::vector<double>(8, 10),
           .backward_ms = std::vector<double>(8, 20),
           .stashes = std::vector<int>(8, 8),
           .micro_batches = 32,
           .seed = 13,
           .best_known_step_ms = 1170,
           .best_known_note = "the bound, reached by 1F1B within 8 stashes per stage"},
          {.name = "two-stage",
           .description =
               "2 stages, 8 micro-batches, forward 10 ms, backward 20 ms, 2 stashes per stage",
           .forward_ms = {10, 10},
           .backward_ms = {20, 20},
           .stashes = {2, 2},
           .seed = 14,
           .best_known_step_ms = 270,
           .best_known_note = "the bound, reached by 1F1B within 2 stashes per stage"},
      },
      {
          // default with half of 1F1B's memory: a fixed order with the warm-up capped by the
          // budget idles (690 ms a step); running whatever is ready within the budget reaches 510.
          {.name = "stretch-two-stashes",
           .description = "default with 2 stashes per stage: 4 stages, 8 micro-batches, forward "
                          "10 ms, backward 20 ms",
           .forward_ms = {10, 10, 10, 10},
           .backward_ms = {20, 20, 20, 20},
           .stashes = {2, 2, 2, 2},
           .seed = 15},
          // The slowest stage first, with room on it for 7 stashes: 1F1B's p - 1 = 3 warm-up
          // forwards leave it idle until its first gradient returns (405 ms a step); 7 forwards
          // cover that round trip (105 ms) and reach the bound, 360.
          {.name = "stretch-slow-first",
           .description = "4 stages, 8 micro-batches, forward 15, 10, 10, 10 ms, backward 30, 20, "
                          "20, 20 ms, stashes 7, 3, 2, 1: the slowest stage first, with the most "
                          "memory",
           .forward_ms = {15, 10, 10, 10},
           .backward_ms = {30, 20, 20, 20},
           .stashes = {7, 3, 2, 1},
           .seed = 16},
      },
      // Their best known steps are the planner's (planner.hpp), as for a generated scenario.
      [](Scenario& s) {
        const planner::BestKnown best = planner::best_known(s);
        s.best_known_step_ms = sim::to_ms(best.step);
        s.best_known_note = best.note;
      }};
  return table;
}

sim::Time baseline_step(const Scenario& s) {
  sim::Time per_micro_batch = 0;
  for (int i = 0; i < s.stages(); ++i) {
    per_micro_batch += sim::from_ms(s.forward_ms[i]) + sim::from_ms(s.backward_ms[i]);
  }
  return s.micro_batches * per_micro_batch + s.stages() * sim::from_ms(s.optimizer_ms);
}

// In integer microseconds, so that a bound a schedule reaches equals its makespan exactly.
Bound lower_bound(const Scenario& s) {
  const int p = s.stages();
  const int m = s.micro_batches;
  std::vector<sim::Time> f, b;
  for (int i = 0; i < p; ++i) {
    f.push_back(sim::from_ms(s.forward_ms[i]));
    b.push_back(sim::from_ms(s.backward_ms[i]));
  }
  sim::Time best = 0;
  std::string derivation;
  sim::Time all_forwards = 0, all_backwards = 0;
  for (int i = 0; i < p; ++i) all_forwards += f[i], all_backwards += b[i];
  sim::Time before = 0;            // Σ_{i<s} (f_i + b_i)
  sim::Time backwards_before = 0;  // Σ_{i<s} b_i
  for (int st = 0; st < p; ++st) {
    // Stage st starts after the first micro-batch reaches it, runs m forwards and m backwards,
    // and its last gradient must still travel back to stage 0.
    const sim::Time own = m * (f[st] + b[st]);
    if (before + own > best) {
      best = before + own;
      derivation = fmt::format(
          "max over stages s of sum_(i<s)(f_i+b_i) + m(f_s+b_s), reached at stage {}: {:g} ms for "
          "the first micro-batch to reach it and the last gradient to return, plus {} forwards "
          "and {} backwards ({:g} ms)",
          st, sim::to_ms(before), m, m, sim::to_ms(own));
    }
    // Little's law: a stash on stage st lives at least D = Σ_{i>=st} (f_i + b_i); with B stashes
    // some stash slot serves ceil(m / B) micro-batches one after another.
    sim::Time held = 0;
    for (int i = st; i < p; ++i) held += f[i] + b[i];
    const int rounds = (m + s.stashes[st] - 1) / s.stashes[st];
    if (before + rounds * held > best) {
      best = before + rounds * held;
      derivation = fmt::format(
          "stash budget on stage {}: a stash lives at least {:g} ms (its forward to its backward), "
          "so {} stashes serve {} micro-batches in no less than {} x {:g} ms, plus {:g} ms in and "
          "back",
          st, sim::to_ms(held), s.stashes[st], m, rounds, sim::to_ms(held), sim::to_ms(before));
    }
    // Warm-up: any micro-batch's backward on stage st starts no earlier than R = Σf +
    // Σ_{i>st} b_i (its forwards everywhere, then the backwards after st). Until the first one
    // ends no stash on st is freed, and each forward takes one, so at most k = min(B, m) forwards
    // run before it; the other m - k forwards and all m backwards follow, one at a time, and the
    // last gradient returns through the stages before st: R + (m - k) f_st + m b_st +
    // Σ_{i<st} b_i.
    const int warm = std::min(s.stashes[st], m);
    const sim::Time round_trip = all_forwards + (all_backwards - backwards_before - b[st]);
    const sim::Time warmup = round_trip + (m - warm) * f[st] + m * b[st] + backwards_before;
    if (warmup > best) {
      best = warmup;
      derivation = fmt::format(
          "warm-up on stage {}: its first backward starts no earlier than {:g} ms (a micro-batch's "
          "forwards everywhere and the backwards after it), and until one ends its {} stashes "
          "allow {} forwards; then {} forwards and {} backwards ({:g} ms), and {:g} ms back to "
          "stage 0",
          st, sim::to_ms(round_trip), s.stashes[st], warm, m - warm, m,
          sim::to_ms((m - warm) * f[st] + m * b[st]), sim::to_ms(backwards_before));
    }
    before += f[st] + b[st];
    backwards_before += b[st];
  }
  // The optimizer steps of different stages may run at once.
  return {sim::to_ms(best + sim::from_ms(s.optimizer_ms)), derivation};
}

}  // namespace overlap::pipeline
