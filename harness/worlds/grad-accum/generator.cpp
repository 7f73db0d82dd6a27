// The grad-accum scenarios drawn from a seed (../common/generated.hpp), within the ranges the
// brief promises. Scenario k is of family k mod 4, so that any four in a row take every path:
//   0  early stopping decides while a step's gradients are being computed
//   1  no check decides: the step limit ends training
//   2  validators of very different speeds, whose results come back out of check order
//   3  few slots and slow validations: training waits for slots, and the decision comes during
//      an optimizer step or while training waits
#include <fmt/format.h>

#include <cmath>
#include <stdexcept>
#include <string>

#include "../common/generated.hpp"
#include "planner.hpp"
#include "world.hpp"

namespace overlap::grad_accum {

namespace {

enum class Family { mid_compute, step_limit, uneven_validators, slots_bound };

constexpr int kMaxChecks = 40;  // a decision after at most this many checks
constexpr int kMaxAttempts = 1000;

// To `places` decimals, as written in the description.
double rounded(double x, int places) {
  const double scale = std::pow(10.0, places);
  return std::round(x * scale) / scale;
}

std::string joined(const std::vector<double>& ms) {
  std::string out;
  for (double x : ms) out += (out.empty() ? "" : ", ") + fmt::format("{:g}", x);
  return out;
}

// One attempt: everything drawn; max_steps set from where early stopping would decide.
// Nothing when the draw is outside what the family needs.
std::optional<Scenario> draw_scenario(worlds::Draw& draw, Family family) {
  Scenario s;
  s.worker_ms.assign(draw.integer(2, 6), 0);
  for (double& ms : s.worker_ms) ms = draw.ms(10, 100);
  s.micro_batches = draw.integer(4, 16);
  s.optimizer_ms = 20;
  s.validate_every = draw.integer(1, 3);
  s.patience = draw.integer(1, 5);
  s.min_delta = rounded(0.001 + 0.014 * draw.unit(), 4);
  s.seed = static_cast<std::uint64_t>(draw.integer(1, 999'999'999));
  s.learning_rate = rounded(0.4 + 0.6 * draw.unit(), 2);

  s.validators = family == Family::uneven_validators ? draw.integer(2, 4) : draw.integer(1, 4);
  s.snapshot_slots = family == Family::slots_bound         ? draw.integer(1, 2)
                     : family == Family::uneven_validators ? draw.integer(s.validators, 4)
                                                           : draw.integer(1, 4);
  const double k_steps = s.validate_every * (step_compute_ms(s) + s.optimizer_ms);
  if (family == Family::uneven_validators) {
    // Speeds up to 3.0 apart, together just fast enough to keep up with training.
    std::vector<double> factor;
    double throughput = 0;
    for (int v = 0; v < s.validators; ++v) {
      factor.push_back(1 + (3.0 - 1) * draw.unit());
      throughput += 1 / factor.back();
    }
    const double base = k_steps * throughput / (1 + 0.5 * draw.unit());
    for (double f : factor) s.validator_ms.push_back(draw.ms(base * f, base * f));
  } else {
    const double base = k_steps * (family == Family::slots_bound ? 1.5 + 2.5 * draw.unit()
                                                                 : 0.5 + 3.5 * draw.unit());
    s.validator_ms.assign(s.validators, draw.ms(base, base));  // alike: only family 2 differs
  }
  s.validate_ms = s.validator_ms[0];

  // Where early stopping decides, given room: a step limit past it, or (step-limit family)
  // before it.
  s.max_steps = kMaxChecks * s.validate_every;
  const Decision natural = oracle(s).decision;
  if (!natural.by_patience) return std::nullopt;
  const int decides = natural.stop_check;
  if (family == Family::step_limit) {
    if (decides < 4) return std::nullopt;
    s.max_steps = s.validate_every * draw.integer(std::max(3, decides / 2), decides - 1);
  } else {
    s.max_steps = s.validate_every * (decides + draw.integer(1, 6));
  }
  return s;
}

// Whether the scenario takes its family's path when trained at full speed with checks to the
// validator free first, and is worth grading: the best rule at least 20 % below the baseline.
bool takes_its_path(const Scenario& s, Family family) {
  const Decision d = oracle(s).decision;
  if (d.by_patience != (family != Family::step_limit)) return false;
  const Schedule planned = plan(s, d.stop_check, Assignment::free_first);
  const double decided = planned.makespan_ms;
  const bool mid_compute = planned.computing_at(s, decided);
  switch (family) {
    case Family::mid_compute:
      if (!mid_compute) return false;
      break;
    case Family::step_limit:
      break;
    case Family::uneven_validators:
      if (!planned.results_out_of_order(d.stop_check)) return false;
      break;
    case Family::slots_bound:
      if (mid_compute || decided >= planned.applied_ms.back()) return false;
      break;
  }
  const double baseline = baseline_ms(s, d);
  // On the rules' figure, not the search's: a wider search does not change what is drawn.
  return planned.makespan_ms <= 0.8 * baseline || best_by_rule(s, d) <= 0.8 * baseline;
}

}  // namespace

Scenario World::generate(std::uint64_t seed, int k) {
  const auto family = static_cast<Family>(k % 4);
  for (int attempt = 0; attempt < kMaxAttempts; ++attempt) {
    worlds::Draw draw(seed, k, attempt);
    std::optional<Scenario> s = draw_scenario(draw, family);
    if (!s || !takes_its_path(*s, family)) continue;
    s->name = worlds::generated_name(seed, k);
    s->description = fmt::format(
        "{} workers at {} ms, {} micro-batches per step, optimizer {:g} ms; every {} steps a "
        "check on {} validators at {} ms with {} snapshot slots; patience {}, min_delta {:g}, "
        "at most {} steps; data seed {}, learning rate {:g}",
        s->worker_ms.size(), joined(s->worker_ms), s->micro_batches, s->optimizer_ms,
        s->validate_every, s->validators, joined(s->validator_ms), s->snapshot_slots, s->patience,
        s->min_delta, s->max_steps, s->seed, s->learning_rate);
    return *s;
  }
  throw std::logic_error(fmt::format("grad-accum: no scenario drawn for seed {}, k {}", seed, k));
}

std::vector<verdict::Parameter> World::parameters(const Scenario& s) {
  std::vector<double> validators;
  for (int v = 0; v < s.validators; ++v) validators.push_back(s.validation_ms(v));
  return {{"worker_ms", s.worker_ms},
          {"micro_batches", {static_cast<double>(s.micro_batches)}},
          {"optimizer_ms", {s.optimizer_ms}},
          {"validate_every", {static_cast<double>(s.validate_every)}},
          {"validator_ms", validators},
          {"snapshot_slots", {static_cast<double>(s.snapshot_slots)}},
          {"patience", {static_cast<double>(s.patience)}},
          {"min_delta", {s.min_delta}},
          {"max_steps", {static_cast<double>(s.max_steps)}},
          {"data_seed", {static_cast<double>(s.seed)}},
          {"learning_rate", {s.learning_rate}}};
}

}  // namespace overlap::grad_accum
