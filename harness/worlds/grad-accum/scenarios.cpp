#include "scenarios.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>

#include "../common/scenario_list.hpp"

namespace overlap::grad_accum {

namespace {

std::vector<Scenario> make_scenarios() {
  std::vector<Scenario> all;
  Scenario s;
  s.name = "default";
  s.description =
      "4 workers at 20 ms, 8 micro-batches per step, optimizer 20 ms; every 2 steps "
      "a 350 ms validation on 3 validators with 3 snapshot slots; patience 3, "
      "min_delta 0.01";
  s.optimum_ms = 1430;
  s.optimum_note = "training at full speed, every validation hidden but the deciding one";
  all.push_back(s);

  s = Scenario{};
  s.name = "straggler";
  s.description = "the default, but worker 3 takes 100 ms a gradient";
  s.worker_ms = {20, 20, 20, 100};
  s.optimum_ms = 1790;
  s.optimum_note =
      "the straggler left idle: the other three finish a step's 8 micro-batches in "
      "60 ms, any micro-batch on the straggler takes 100";
  all.push_back(s);

  s = Scenario{};
  s.name = "no-early-stop";
  s.description =
      "the default with patience 20: no check stops training, which ends at the "
      "step limit of 24 steps";
  s.patience = 20;
  s.max_steps = 24;
  s.optimum_ms = 1790;
  s.optimum_note = "training at full speed to the step limit, then the last validation";
  all.push_back(s);

  s = Scenario{};
  s.name = "slow-validator";
  s.description =
      "the default with 1500 ms validations on 2 validators: validation lags "
      "training by many checks";
  s.validate_ms = 1500;
  s.validators = 2;
  s.optimum_ms = 7620;
  s.optimum_note = "both validators always busy from the first check on";
  all.push_back(s);
  return all;
}

}  // namespace

const std::vector<Scenario>& scenarios() {
  static const std::vector<Scenario> all = make_scenarios();
  return all;
}

const Scenario* find_scenario(const std::string& name) {
  return worlds::find_by_name(scenarios(), name);
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
      return d;
    }
  }
  d.stop_check = static_cast<int>(losses.size());  // the step limit
  return d;
}

double step_compute_ms(const Scenario& s) {
  std::vector<int> count(s.worker_ms.size(), 0);
  double makespan = 0;
  for (int i = 0; i < s.micro_batches; ++i) {
    std::size_t pick = 0;
    for (std::size_t w = 1; w < count.size(); ++w) {
      if ((count[w] + 1) * s.worker_ms[w] < (count[pick] + 1) * s.worker_ms[pick]) pick = w;
    }
    ++count[pick];
    makespan = std::max(makespan, count[pick] * s.worker_ms[pick]);
  }
  return makespan;
}

double baseline_ms(const Scenario& s, const Decision& d) {
  const double step = s.micro_batches * s.worker_ms[0] + s.optimizer_ms;
  return d.stop_check * (s.validate_every * step + s.validate_ms);
}

Bound lower_bound(const Scenario& s, const Decision& d) {
  // Training: no step is faster than its best gradient makespan plus the optimizer; the
  // deciding check's snapshot comes after stop_check * K steps, and its validation after that.
  const double step = step_compute_ms(s) + s.optimizer_ms;
  const double training = d.stop_check * s.validate_every * step + s.validate_ms;
  // Validation: the first snapshot needs K steps; then every check up to the deciding one is
  // validated, at most min(validators, slots) at a time.
  const int parallel = std::min(s.validators, s.snapshot_slots);
  const double validating = s.validate_every * step +
                            std::ceil(static_cast<double>(d.stop_check) / parallel) * s.validate_ms;
  if (training >= validating) {
    return {training,
            fmt::format("training: {} checks x {} steps x {:g} ms (the fastest step: {:g} ms of "
                        "gradients + {:g} ms optimizer), then the deciding check's {:g} ms "
                        "validation",
                        d.stop_check, s.validate_every, step, step_compute_ms(s), s.optimizer_ms,
                        s.validate_ms)};
  }
  return {validating,
          fmt::format("validation: the first snapshot after {} steps ({:g} ms), then {} checks "
                      "{} at a time (validators and slots), {:g} ms each",
                      s.validate_every, s.validate_every * step, d.stop_check, parallel,
                      s.validate_ms)};
}

}  // namespace overlap::grad_accum
