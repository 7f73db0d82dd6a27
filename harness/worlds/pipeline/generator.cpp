// The pipeline scenarios drawn from a seed (../common/generated.hpp), within the ranges the brief
// promises: 2-8 stages, p to 4p micro-batches, forward 5-20 ms and backward 1.5-2.5 times it per
// stage, stash budgets from 1F1B's p - s up to below m. Scenario k of any seed puts the slowest
// stage first, in the middle, last, or anywhere in a pipeline of four stages or more (k % 4), so
// that any four in a row cover where the bottleneck sits and a deep pipeline. A draw that leaves
// less than 20 % to gain over the starter is drawn again.
#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include "../common/generated.hpp"
#include "planner.hpp"
#include "world.hpp"

namespace overlap::pipeline {

namespace {

constexpr int kSteps = 3;  // as the named scenarios
constexpr int kMaxAttempts = 100;
// A budget of exactly p - s (1F1B's need) this often, so that tight budgets come up.
constexpr double kTightBudget = 0.3;

enum class Family { slowest_first, slowest_middle, slowest_last, deep };

std::string listed(const std::vector<double>& values) {
  return fmt::format("{:g}", fmt::join(values, ", "));
}

Scenario draw_scenario(worlds::Draw& d, Family family) {
  const int p = family == Family::slowest_middle ? d.integer(3, 8)
                : family == Family::deep         ? d.integer(4, 8)
                                                 : d.integer(2, 8);
  Scenario s;
  s.micro_batches = d.integer(p, 4 * p);
  for (int i = 0; i < p; ++i) {
    // Whole microseconds, the backward within 1.5-2.5 times the forward.
    const sim::Time f = sim::from_ms(d.ms(5, 20));
    const sim::Time b = std::clamp(static_cast<sim::Time>(std::llround(f * (1.5 + d.unit()))),
                                   (3 * f + 1) / 2, 5 * f / 2);
    s.forward_ms.push_back(sim::to_ms(f));
    s.backward_ms.push_back(sim::to_ms(b));
  }
  // The slowest stage (forward plus backward) moved to where the family wants it.
  const int at = family == Family::slowest_first    ? 0
                 : family == Family::slowest_middle ? d.integer(1, p - 2)
                 : family == Family::slowest_last   ? p - 1
                                                    : d.integer(0, p - 1);
  int slowest = 0;
  for (int i = 1; i < p; ++i) {
    if (s.forward_ms[i] + s.backward_ms[i] > s.forward_ms[slowest] + s.backward_ms[slowest]) {
      slowest = i;
    }
  }
  std::swap(s.forward_ms[at], s.forward_ms[slowest]);
  std::swap(s.backward_ms[at], s.backward_ms[slowest]);
  // Room for 1F1B (p - s stashes on stage s), never for GPipe (m on every stage): the last stage
  // holds fewer than m, as 1 <= p - (p - 1) and m >= 2.
  for (int i = 0; i < p; ++i) {
    const int need = p - i;
    s.stashes.push_back(
        d.chance(kTightBudget) ? need : d.integer(need, std::max(need, s.micro_batches - 1)));
  }
  s.steps = kSteps;
  s.seed = d.seed() % 1'000'000'007;
  s.description = fmt::format(
      "{} stages, {} micro-batches, forward {} ms, backward {} ms, stashes per stage {}", p,
      s.micro_batches, listed(s.forward_ms), listed(s.backward_ms), fmt::join(s.stashes, ", "));
  return s;
}

}  // namespace

Scenario World::generate(std::uint64_t seed, int k) {
  if (k < 0) throw std::invalid_argument("a generated scenario's index is at least 0");
  const auto family = static_cast<Family>(k % 4);
  for (int attempt = 0; attempt < kMaxAttempts; ++attempt) {
    worlds::Draw draw(seed, k, attempt);
    Scenario s = draw_scenario(draw, family);
    // At least 20 % to gain over the starter, or it says little about a schedule.
    if (5 * planner::best_known(s, planner::Breadth::narrow).step > 4 * baseline_step(s)) continue;
    const planner::BestKnown best = planner::best_known(s);
    s.name = worlds::generated_name(seed, k);
    s.best_known_step_ms = sim::to_ms(best.step);
    s.best_known_note = best.note;
    return s;
  }
  throw std::logic_error(
      fmt::format("pipeline: no scenario {} of seed {} in {} draws", k, seed, kMaxAttempts));
}

std::vector<verdict::Parameter> World::parameters(const Scenario& s) {
  std::vector<double> stashes(s.stashes.begin(), s.stashes.end());
  return {{"stages", {static_cast<double>(s.stages())}},
          {"micro_batches", {static_cast<double>(s.micro_batches)}},
          {"forward_ms", s.forward_ms},
          {"backward_ms", s.backward_ms},
          {"stashes", stashes},
          {"steps", {static_cast<double>(s.steps)}}};
}

}  // namespace overlap::pipeline
