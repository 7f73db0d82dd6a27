#include "scenarios.hpp"

#include <fmt/format.h>

#include <algorithm>

#include "../common/scenario_list.hpp"

namespace overlap::fsdp {

namespace {

std::vector<Scenario> make_scenarios() {
  std::vector<Scenario> all;
  Scenario s;
  s.name = "default";
  s.description =
      "4 ranks, 12 layers; per layer copy 10, all-gather 10, forward 10, backward 20, "
      "reduce-scatter 20 ms; 2 parameter and 2 gradient buffers per rank";
  s.seed = 31;
  s.optimum_ms = 400;
  all.push_back(s);

  s = Scenario{};
  s.name = "comm-bound";
  s.description = "the default with all-gather and reduce-scatter at 30 ms";
  s.all_gather_ms = 30;
  s.reduce_scatter_ms = 30;
  s.seed = 32;
  s.optimum_ms = 760;
  all.push_back(s);

  s = Scenario{};
  s.name = "compute-bound";
  s.description = "the default with forward 20 and backward 40 ms";
  s.forward_ms = 20;
  s.backward_ms = 40;
  s.seed = 33;
  s.optimum_ms = 760;
  all.push_back(s);

  s = Scenario{};
  s.name = "straggler-rank";
  s.description = "the default, but rank 3 computes 1.5 times slower (forward 15, backward 30 ms)";
  s.slow_rank = 3;
  s.slow_factor = 1.5;
  s.seed = 34;
  s.optimum_ms = 580;
  all.push_back(s);

  s = Scenario{};
  s.name = "eight-ranks";
  s.description =
      "8 ranks: all-gather 11.667 and reduce-scatter 23.333 ms (the four-rank times "
      "x (7/8)/(3/4), a ring's bandwidth term for the same layer size)";
  s.ranks = 8;
  s.all_gather_ms = 11.667;
  s.reduce_scatter_ms = 23.333;
  s.seed = 35;
  s.optimum_ms = 460;
  all.push_back(s);
  return all;
}

double slowest_forward(const Scenario& s) {
  double t = 0;
  for (int r = 0; r < s.ranks; ++r) t = std::max(t, s.forward_on(r));
  return t;
}

double slowest_backward(const Scenario& s) {
  double t = 0;
  for (int r = 0; r < s.ranks; ++r) t = std::max(t, s.backward_on(r));
  return t;
}

}  // namespace

const std::vector<Scenario>& scenarios() {
  static const std::vector<Scenario> all = make_scenarios();
  return all;
}

const Scenario* find_scenario(const std::string& name) {
  return worlds::find_by_name(scenarios(), name);
}

double baseline_ms(const Scenario& s) {
  // In lockstep: a collective completes when the slowest rank has issued it.
  const double f = slowest_forward(s), b = slowest_backward(s), L = s.layers;
  const double gather = s.copy_ms + s.all_gather_ms;
  return L * (gather + f) + (L - 1) * gather + L * (b + s.reduce_scatter_ms);
}

Bound lower_bound(const Scenario& s) {
  const double f = slowest_forward(s), b = slowest_backward(s), L = s.layers;
  const double copy = s.copy_ms, ag = s.all_gather_ms, rs = s.reduce_scatter_ms;
  // The last forward ends no earlier than any of: one copy and gather then every forward; every
  // gather (one at a time) after the first copy, then one forward; every copy, then one gather
  // and one forward.
  const double forwards_end = std::max({copy + ag + L * f, copy + L * ag + f, L * copy + ag + f});
  struct Stream {
    const char* name;
    double ms;
    std::string how;
  };
  const std::vector<Stream> streams = {
      {"compute", forwards_end + L * b + rs,
       fmt::format("the forwards end no earlier than {:g} ms, then {} backwards ({:g} ms) and "
                   "the last reduce-scatter ({:g} ms)",
                   forwards_end, s.layers, L * b, rs)},
      {"reduce-scatter", forwards_end + b + L * rs,
       fmt::format("nothing to reduce before the forwards end ({:g} ms) and the first backward "
                   "({:g} ms), then {} reduce-scatters one at a time ({:g} ms)",
                   forwards_end, b, s.layers, L * rs)},
      {"all-gather", copy + (2 * L - 1) * ag + b + rs,
       fmt::format("the first copy ({:g} ms), {} gathers one at a time ({:g} ms), then the "
                   "first layer's backward and reduce-scatter ({:g} ms)",
                   copy, 2 * s.layers - 1, (2 * L - 1) * ag, b + rs)},
      {"copy", (2 * L - 1) * copy + ag + b + rs,
       fmt::format("{} copies one at a time ({:g} ms), then the first layer's gather, backward "
                   "and reduce-scatter ({:g} ms)",
                   2 * s.layers - 1, (2 * L - 1) * copy, ag + b + rs)},
  };
  const Stream& busiest = *std::max_element(
      streams.begin(), streams.end(), [](const Stream& a, const Stream& c) { return a.ms < c.ms; });
  return {busiest.ms, fmt::format("{} stream{}: {}", busiest.name,
                                  s.slow_rank >= 0 ? " of the slowest rank" : "", busiest.how)};
}

}  // namespace overlap::fsdp
