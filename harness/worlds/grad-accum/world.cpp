#include "world.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <optional>
#include <utility>

#include "../common/exercise_of.hpp"
#include "paths.hpp"
#include "planner.hpp"
#include "wire.hpp"

namespace overlap::grad_accum {

namespace {

// The averages may only differ in summation order from the oracle's.
constexpr double kTolerance = 1e-12;

// When early stopping could decide: the deciding check's result and every earlier one in.
// Adds a violation and returns nothing when one of them never came in: a decision taken before
// it (nothing later came in either), or a check skipped or lost (a later one did).
std::optional<sim::Time> decidable_at(const detail::State& world, const Decision& d,
                                      sim::Simulator& sim, sim::Time stopped) {
  const auto& validations = world.validations();
  const auto validated = [&](int c) {
    return c <= static_cast<int>(validations.size()) && validations[c - 1].end >= 0;
  };
  sim::Time at = 0;
  for (int c = 1; c <= d.stop_check; ++c) {
    if (validated(c)) {
      at = std::max(at, validations[c - 1].end);
      continue;
    }
    bool later_came_in = false;
    for (int later = c + 1; later <= static_cast<int>(validations.size()); ++later) {
      later_came_in = later_came_in || validated(later);
    }
    if (later_came_in) {
      sim.violations().add("missing-check",
                           fmt::format("check {} was never validated, so early stopping could "
                                       "not reach check {}, the one that decides",
                                       c, d.stop_check),
                           sim.now());
    } else {
      sim.violations().add(
          "early-decision",
          fmt::format("stop() came at {:g} ms, with {}: check {} decides, so early stopping "
                      "needs every check up to it",
                      sim::to_ms(stopped),
                      c == 1 ? std::string("no check validated")
                             : fmt::format("checks 1 to {} validated", c - 1),
                      d.stop_check),
          stopped);
    }
    return std::nullopt;
  }
  return at;
}

// The same weights, up to the summation order of the averages.
bool close(const model::Vector& a, const model::Vector& b) {
  if (a.size() != b.size()) return false;
  for (std::size_t i = 0; i < a.size(); ++i) {
    if (std::abs(a[i] - b[i]) > kTolerance * std::max(1.0, std::abs(b[i]))) return false;
  }
  return true;
}

// stop() ends the run's work: whatever runs at that instant is cancelled then, and nothing
// starts after it, so no operation runs past it (the brief: "stop() at once and the rest
// cancelled").
void check_stop_ends_the_work(sim::Simulator& sim, sim::Time stopped) {
  for (const sim::OpRecord& op : sim.timeline().ops) {
    if (!op.runs_past(stopped)) continue;
    sim.violations().add(
        "running-after-stop",
        op.start > stopped
            ? fmt::format("{}: {} began at {:g} ms, after stop() at {:g} ms, and ran {}: "
                          "nothing starts once early stopping has decided",
                          sim.devices()[op.device].name, op.describe(), sim::to_ms(op.start),
                          sim::to_ms(stopped), op.until())
            : fmt::format("{}: {} ran on past stop() at {:g} ms, {}: cancel what is running "
                          "when early stopping decides",
                          sim.devices()[op.device].name, op.describe(), sim::to_ms(stopped),
                          op.until()),
        std::max(op.start, stopped));
  }
}

}  // namespace

wire::Hello World::hello(const Scenario& sc) {
  return {sc.micro_batches, sc.validate_every, sc.snapshot_slots, sc.patience,
          sc.min_delta,     sc.max_steps,      sc.validators,     sc.worker_ms};
}

void World::state(const Run& state, protocol::Writer& w) {
  protocol::write(w, wire::State{state.world.step()});
}

void World::check(const Run& state, sim::Simulator& sim) {
  const detail::State& world = state.world;
  const Scenario& sc = world.scenario();
  const Decision& d = state.decision;
  if (!world.stopped_at()) {
    sim.violations().add("missing-stop", "train returned without calling stop()", sim.now());
    return;
  }
  const sim::Time stopped = *world.stopped_at();
  if (const auto decidable = decidable_at(world, d, sim, stopped)) {
    if (stopped != *decidable) {
      sim.violations().add(
          stopped < *decidable ? "early-decision" : "late-decision",
          fmt::format("stop() came at {:g} ms; check {} (the one that decides) and every check "
                      "before it were in at {:g} ms",
                      sim::to_ms(stopped), d.stop_check, sim::to_ms(*decidable)),
          stopped);
    }
  }
  check_stop_ends_the_work(sim, stopped);
  const int best_step = d.best_check * sc.validate_every;
  if (world.result().step < 0) {
    sim.violations().add("wrong-result",
                         "stop() was given an empty Checkpoint (default-constructed, or one "
                         "whose validation failed or was cancelled): nothing to restore",
                         stopped);
  } else if (world.result().step != best_step) {
    sim.violations().add(
        "wrong-result",
        fmt::format("stop() restored the snapshot of step {}; the best check is "
                    "check {} (step {}, loss {:.4f})",
                    world.result().step, d.best_check, best_step, d.losses[d.best_check - 1]),
        stopped);
  } else if (!close(world.result().values, state.expected.check_weights[d.best_check - 1]) ||
             std::abs(world.result().loss - d.losses[d.best_check - 1]) > kTolerance) {
    sim.violations().add("wrong-result",
                         fmt::format("the restored weights of step {} differ from a sequential "
                                     "run's (validation loss {:.6f}, expected {:.6f})",
                                     best_step, world.result().loss, d.losses[d.best_check - 1]),
                         stopped);
  }
}

void World::add_figures(const Run& state, verdict::ScenarioResult& result) {
  const detail::State& world = state.world;
  const Scenario& sc = world.scenario();
  const Decision& d = state.decision;
  result.figures.push_back({"stop check", static_cast<double>(d.stop_check), ""});
  result.figures.push_back({"best check", static_cast<double>(d.best_check), ""});
  int lag_max = 0, lag_sum = 0, lags = 0;
  for (const detail::Validation& v : world.validations()) {
    if (v.end < 0) continue;
    const int lag = v.trainer_step_at_end - v.step;
    lag_max = std::max(lag_max, lag);
    lag_sum += lag;
    ++lags;
  }
  if (lags > 0) {
    result.figures.push_back(
        {"mean validation lag", std::round(100.0 * lag_sum / lags) / 100, "steps"});
    result.figures.push_back({"max validation lag", static_cast<double>(lag_max), "steps"});
  }
  if (world.stopped_at()) {
    result.figures.push_back(
        {"overshoot", static_cast<double>(world.step_at_stop() - d.stop_check * sc.validate_every),
         "steps"});
  }
  result.paths_taken = paths_taken(world, d, result.timeline);
}

worlds::ScenarioFacts World::facts(const Scenario& sc) {
  const Decision d = oracle(sc).decision;
  // A named scenario keeps its published figure (the planner's, checked in the unit tests) and
  // its interviewer's note; a generated one gets the planner's.
  const BestKnown best =
      sc.best_known_ms > 0
          ? BestKnown{sc.best_known_ms,
                      fmt::format("{:g} ms: {}", sc.best_known_ms, sc.best_known_note)}
          : best_known(sc, d);
  const Bound bound = lower_bound(sc, d);
  worlds::ScenarioFacts facts{
      sc.name,
      sc.description,
      baseline_ms(sc, d),
      bound,
      best.ms,
      best.note + worlds::gap_to_bound(best.ms, bound.ms,
                                       "training and validation together: each bound takes "
                                       "one alone, while a busy validator or a full slot "
                                       "holds back the other")};
  if (const std::optional<BestKnown> known = hindsight(sc, d); known && known->ms < best.ms) {
    facts.hindsight_ms = known->ms;
    facts.hindsight_note = kHindsightKnows;
    facts.best_known_note += "; " + known->note;
  }
  return facts;
}

}  // namespace overlap::grad_accum

OVERLAP_REGISTER_WORLD(overlap::grad_accum::World, grad_accum)
