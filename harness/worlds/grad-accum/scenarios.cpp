#include "scenarios.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <limits>

#include "../../sim/time.hpp"

namespace overlap::grad_accum {

const worlds::ScenarioTable<Scenario>& scenario_table() {
  static const worlds::ScenarioTable<Scenario> table{
      {
          {.name = "default",
           .description = "4 workers at 20 ms, 8 micro-batches per step, optimizer 20 ms; every 2 "
                          "steps a 350 ms validation on 3 validators with 3 snapshot slots; "
                          "patience 3, min_delta 0.01",
           .best_known_ms = 1430,
           .best_known_note =
               "training at full speed, every validation hidden but the deciding one"},
          {.name = "straggler",
           .description = "the default, but worker 3 takes 100 ms a gradient",
           .worker_ms = {20, 20, 20, 100},
           .best_known_ms = 1790,
           .best_known_note = "the straggler left idle: the other three finish a step's 8 "
                              "micro-batches in 60 ms, any micro-batch on the straggler takes 100"},
          {.name = "no-early-stop",
           .description = "the default with patience 20 and a step limit of 24 steps",
           .patience = 20,
           .max_steps = 24,
           .best_known_ms = 1790,
           .best_known_note = "no check stops training: training at full speed to the step "
                              "limit, then the last validation"},
          {.name = "slow-validator",
           .description = "the default with 1500 ms validations on 2 validators",
           .validate_ms = 1500,
           .validators = 2,
           .best_known_ms = 7620,
           .best_known_note = "both validators always busy from the first check on; validation "
                              "lags training by many checks"},
          {.name = "uneven-validators",
           .description = "the default with validators of 350, 350 and 200 ms",
           .validator_ms = {350, 350, 200},
           .best_known_ms = 1310,
           .best_known_note = "every check to the validator that is free first (the best over "
                              "every assignment); later checks finish before earlier ones, so "
                              "results are taken in check order"},
          {.name = "other-data",
           .description = "the default on another data set, with 330 ms validations",
           .validate_ms = 330,
           .seed = 29,
           .best_known_ms = 1530,
           .best_known_note =
               "training at full speed, every validation hidden but the deciding one; check 7 "
               "improves on the best (check 5) though not by min_delta on check 6; check 10 "
               "decides, during a step's gradients, which are cancelled then"},
      },
      // Their best known makespans are the planner's (planner.hpp), as for a generated
      // scenario: best_known_ms stays 0.
      {
          {.name = "stretch-slow-validation",
           .description = "the default with 550 ms validations: 3 validators and 3 snapshot slots "
                          "cannot keep up with a check every 120 ms",
           .validate_ms = 550},
          {.name = "stretch-five-validators",
           .description = "the same 550 ms validations on 5 validators, still with 3 snapshot "
                          "slots: more validators than slots",
           .validate_ms = 550,
           .validators = 5},
      }};
  return table;
}

Decision decide(const Scenario& s, const std::vector<double>& losses) {
  Decision d;
  double best = 0;
  int bad = 0;
  for (std::size_t i = 0; i < losses.size(); ++i) {
    const int check = static_cast<int>(i) + 1;
    d.losses.push_back(losses[i]);
    if (d.best_check == 0 || losses[i] < best - s.min_delta) {
      best = losses[i];
      d.best_check = check;
      bad = 0;
    } else if (++bad >= s.patience) {
      d.stop_check = check;
      d.by_patience = true;
      return d;
    }
  }
  d.stop_check = static_cast<int>(losses.size());  // the step limit
  return d;
}

double step_compute_ms(const Scenario& s) {
  std::vector<int> count(s.worker_ms.size(), 0);
  sim::Time makespan = 0;  // in whole microseconds, as the simulator adds them
  for (int i = 0; i < s.micro_batches; ++i) {
    std::size_t pick = 0;
    for (std::size_t w = 1; w < count.size(); ++w) {
      if ((count[w] + 1) * s.worker_ms[w] < (count[pick] + 1) * s.worker_ms[pick]) pick = w;
    }
    ++count[pick];
    makespan = std::max(makespan, count[pick] * sim::from_ms(s.worker_ms[pick]));
  }
  return sim::to_ms(makespan);
}

double baseline_ms(const Scenario& s, const Decision& d) {
  // In whole microseconds, as the simulator adds them: the starter's makespan exactly.
  const sim::Time step =
      s.micro_batches * sim::from_ms(s.worker_ms[0]) + sim::from_ms(s.optimizer_ms);
  return sim::to_ms(d.stop_check * (s.validate_every * step + sim::from_ms(s.validation_ms(0))));
}

Bound lower_bound(const Scenario& s, const Decision& d) {
  // In whole microseconds, so that a schedule reaching the bound is not reported below it.
  std::vector<sim::Time> speeds;
  for (int v = 0; v < s.validators; ++v) speeds.push_back(sim::from_ms(s.validation_ms(v)));
  std::sort(speeds.begin(), speeds.end());
  // Training: no step is faster than its best gradient makespan plus the optimizer; the
  // deciding check's snapshot comes after stop_check * K steps, and its validation after that.
  const sim::Time step = sim::from_ms(step_compute_ms(s)) + sim::from_ms(s.optimizer_ms);
  const sim::Time training = d.stop_check * s.validate_every * step + speeds.front();
  // Validation: the first snapshot needs K steps; then every check up to the deciding one is
  // validated, at most `slots` at a time: on the fastest validators, the earliest moment they can
  // have finished stop_check validations between them.
  speeds.resize(std::min<std::size_t>(speeds.size(), s.snapshot_slots));
  // The earliest T with sum over the fastest validators of floor(T / v) >= stop_check: T is a
  // multiple of one of their times.
  sim::Time busy = std::numeric_limits<sim::Time>::max();
  for (sim::Time v : speeds) {
    for (int k = 1; k <= d.stop_check; ++k) {
      const sim::Time t = k * v;
      std::int64_t done = 0;
      for (sim::Time w : speeds) done += t / w;
      if (done >= d.stop_check) busy = std::min(busy, t);
    }
  }
  const sim::Time validating = s.validate_every * step + busy;
  if (training >= validating) {
    return {sim::to_ms(training),
            fmt::format("training: {} checks x {} steps x {:g} ms (the fastest step: {:g} ms of "
                        "gradients + {:g} ms optimizer), then the deciding check's validation "
                        "({:g} ms at the fastest)",
                        d.stop_check, s.validate_every, sim::to_ms(step), step_compute_ms(s),
                        s.optimizer_ms, sim::to_ms(speeds.front()))};
  }
  return {sim::to_ms(validating),
          fmt::format("validation: the first snapshot after {} steps ({:g} ms), then {} checks "
                      "on the validators, at most {} at a time (validators and slots): {:g} ms "
                      "at the least",
                      s.validate_every, sim::to_ms(s.validate_every * step), d.stop_check,
                      speeds.size(), sim::to_ms(busy))};
}

}  // namespace overlap::grad_accum
