#include "scenarios.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <limits>

#include "../../sim/time.hpp"

namespace overlap::fsdp {

const worlds::ScenarioTable<Scenario>& scenario_table() {
  static const worlds::ScenarioTable<Scenario> table{
      {
          {.name = "default",
           .description = "4 ranks, 12 layers; per layer copy 10, all-gather 10, forward 10, "
                          "backward 20, reduce-scatter 20 ms; 2 parameter and 2 gradient buffers "
                          "per rank",
           .seed = 31,
           .best_known_ms = 400},
          {.name = "comm-bound",
           .description = "the default with all-gather and reduce-scatter at 30 ms",
           .all_gather_ms = 30,
           .reduce_scatter_ms = 30,
           .seed = 32,
           .best_known_ms = 760},
          {.name = "compute-bound",
           .description = "the default with forward 20 and backward 40 ms",
           .forward_ms = 20,
           .backward_ms = 40,
           .seed = 33,
           .best_known_ms = 760},
          {.name = "straggler-rank",
           .description =
               "the default, but rank 3 computes 1.5 times slower (forward 15, backward 30 ms)",
           .slow_rank = 3,
           .slow_factor = 1.5,
           .seed = 34,
           .best_known_ms = 580},
          {.name = "eight-ranks",
           .description = "8 ranks: all-gather 11.667 and reduce-scatter 23.333 ms (the four-rank "
                          "times x (7/8)/(3/4), a ring's bandwidth term for the same layer size)",
           .ranks = 8,
           .all_gather_ms = 11.667,
           .reduce_scatter_ms = 23.333,
           .seed = 35,
           .best_known_ms = 460},
      },
      // For a candidate optimal early. Their best known is the planner's (planner.hpp), as for a
      // generated scenario: best_known_ms stays 0.
      {
          {.name = "stretch-slow-copies",
           .description = "the default with host copies at 20 ms",
           .copy_ms = 20,
           .seed = 41},
          {.name = "stretch-three-buffers",
           .description = "the default with all-gather at 30 ms and 3 parameter buffers per rank",
           .all_gather_ms = 30,
           .param_buffers = 3,
           .seed = 42},
          {.name = "stretch-large-layer",
           .description = "the default with layer 6 four times as large (each of its times x4)",
           .sizes = {1, 1, 1, 1, 1, 1, 4, 1, 1, 1, 1, 1},
           .seed = 43},
      }};
  return table;
}

namespace {

// Sums of layer times are taken in whole microseconds (sim::from_ms): the simulator's own
// arithmetic, so a figure equals a run's makespan exactly.

// The sum of the n smallest of `times`.
sim::Time smallest(std::vector<sim::Time> times, int n) {
  std::sort(times.begin(), times.end());
  sim::Time sum = 0;
  for (int i = 0; i < n && i < static_cast<int>(times.size()); ++i) sum += times[i];
  return sum;
}

}  // namespace

bool Scenario::uneven() const {
  for (int l = 1; l < layers; ++l) {
    if (size(l) != size(0)) return true;
  }
  return false;
}

double baseline_ms(const Scenario& s) {
  // In lockstep: a collective completes when the slowest rank has issued it.
  const int slow = s.slowest_rank();
  sim::Time t = 0;
  for (int l = 0; l < s.layers; ++l) {
    const sim::Time gather = sim::from_ms(s.copy(l)) + sim::from_ms(s.all_gather(l));
    t += gather + sim::from_ms(s.forward_on(slow, l)) + sim::from_ms(s.backward_on(slow, l)) +
         sim::from_ms(s.reduce_scatter(l));
    if (l + 1 < s.layers) t += gather;  // gathered again for its backward
  }
  return sim::to_ms(t);
}

namespace {

// The compute stream of the slowest rank with its buffers (the end of its last backward, plus
// layer 0's reduce-scatter), by a chain of lower bounds on when each forward and backward ends.
// A parameter buffer is held from a gather's issue until the release after the layer's last use;
// a gradient buffer from a backward's start until its reduce-scatter ends.
//   P buffers, forwards l-P .. l: their layers cannot all be held at once, and each is held from
//   its gather to its forward's end; so just before forward l-P ends, some layer i in
//   (l-P, l] is not gathered yet: forward l ends no earlier than forward l-P's end + ag_i +
//   f_i + ... + f_l, for the cheapest such i.
//   P buffers, backwards l .. l-P: the same; a layer kept gathered since its forward counts as
//   gathered early. So some layer i in [l-P, l) is gathered after backward l ends, and backward
//   l-P ends no earlier than backward l's end + ag_i + b_i + ... + b_(l-P), the cheapest i.
//   G gradient buffers, backwards l .. l-G: when backward l-G starts, the gradient buffer of
//   some layer i in (l-G, l] is free again: its backward and reduce-scatter have ended.
sim::Time compute_with_buffers(const Scenario& s, const std::vector<sim::Time>& copy,
                               const std::vector<sim::Time>& ag, const std::vector<sim::Time>& f,
                               const std::vector<sim::Time>& b, const std::vector<sim::Time>& rs,
                               sim::Time forwards_end) {
  const int L = s.layers, P = s.param_buffers, G = s.grad_buffers;
  std::vector<sim::Time> fwd(L), bwd(L);
  for (int l = 0; l < L; ++l) {
    fwd[l] = std::max(l == 0 ? 0 : fwd[l - 1], copy[l] + ag[l]) + f[l];
    if (l >= P) {
      sim::Time cheapest = std::numeric_limits<sim::Time>::max(), tail = 0;
      for (int i = l; i > l - P; --i) {
        tail += f[i];
        cheapest = std::min(cheapest, ag[i] + tail);
      }
      fwd[l] = std::max(fwd[l], fwd[l - P] + cheapest);
    }
  }
  for (int l = L - 1; l >= 0; --l) {
    bwd[l] = (l == L - 1 ? std::max(fwd[L - 1], forwards_end) : bwd[l + 1]) + b[l];
    if (l + P <= L - 1) {  // backwards l+P .. l
      sim::Time cheapest = std::numeric_limits<sim::Time>::max(), tail = 0;
      for (int i = l; i < l + P; ++i) {
        tail += b[i];
        cheapest = std::min(cheapest, ag[i] + tail);
      }
      bwd[l] = std::max(bwd[l], bwd[l + P] + cheapest);
    }
    if (l + G <= L - 1) {  // backwards l+G .. l: a buffer freed before backward l starts
      sim::Time freed = std::numeric_limits<sim::Time>::max();
      for (int i = l + 1; i <= l + G; ++i) freed = std::min(freed, bwd[i] + rs[i]);
      bwd[l] = std::max(bwd[l], freed + b[l]);
    }
  }
  return bwd[0] + rs[0];
}

}  // namespace

Bound lower_bound(const Scenario& s) {
  const int L = s.layers, slow = s.slowest_rank();
  // At the end of the last forward, every layer gathered only once is held (its backward is
  // still to come), and so is the last layer, which that forward uses: at most `param_buffers`
  // layers with the last among them (or one fewer without it). The others are gathered, and
  // copied, twice.
  const int kept = std::min(s.param_buffers, L);
  std::vector<sim::Time> copy(L), ag(L), f(L), b(L), rs(L);
  for (int l = 0; l < L; ++l) {
    copy[l] = sim::from_ms(s.copy(l)), ag[l] = sim::from_ms(s.all_gather(l)),
    rs[l] = sim::from_ms(s.reduce_scatter(l));
    f[l] = sim::from_ms(s.forward_on(slow, l)), b[l] = sim::from_ms(s.backward_on(slow, l));
  }
  auto sum = [](const std::vector<sim::Time>& v) {
    sim::Time t = 0;
    for (sim::Time x : v) t += x;
    return t;
  };
  const sim::Time first_copy = *std::min_element(copy.begin(), copy.end());
  const sim::Time shortest_gather = *std::min_element(ag.begin(), ag.end());
  // Once the last of the first copies ends (of some layer l), l's gather and forwards l .. L-1.
  sim::Time after_copies = ag[L - 1] + f[L - 1];
  for (int l = L - 1, tail = 0; l >= 0; --l) {
    tail += f[l];
    after_copies = std::min(after_copies, ag[l] + tail);
  }
  // The last forward ends no earlier than any of: layer 0's copy and gather, then every forward;
  // every layer's gather (one at a time) after a first copy, then the last forward; every
  // layer's copy, then a gather and the forwards after it.
  const sim::Time forwards_end = std::max(
      {copy[0] + ag[0] + sum(f), first_copy + sum(ag) + f[L - 1], sum(copy) + after_copies});
  auto twice = [&](const std::vector<sim::Time>& times) {
    return smallest(std::vector<sim::Time>(times.begin(), times.end() - 1), L - kept);
  };
  const sim::Time gathers = sum(ag) + twice(ag);
  const sim::Time copies = sum(copy) + twice(copy);
  const sim::Time last = b[0] + rs[0];  // after the last gather: layer 0's backward and reduce
  const std::string again = fmt::format(
      "every layer once and all but the {} that can stay gathered through the turn (the last "
      "among them) again",
      kept);
  struct Stream {
    std::string name;
    sim::Time t;
    std::string how;
  };
  std::vector<Stream> streams = {
      {"compute", forwards_end + sum(b) + rs[0],
       fmt::format("the forwards end no earlier than {:g} ms, then {} backwards ({:g} ms) and "
                   "layer 0's reduce-scatter ({:g} ms)",
                   sim::to_ms(forwards_end), L, sim::to_ms(sum(b)), sim::to_ms(rs[0]))},
      {"reduce-scatter", forwards_end + b[L - 1] + sum(rs),
       fmt::format("nothing to reduce before the forwards end ({:g} ms) and the first backward "
                   "({:g} ms), then {} reduce-scatters one at a time ({:g} ms)",
                   sim::to_ms(forwards_end), sim::to_ms(b[L - 1]), L, sim::to_ms(sum(rs)))},
      {"all-gather", first_copy + gathers + last,
       fmt::format("a first copy ({:g} ms), {} gathers one at a time ({}: {:g} ms), then "
                   "layer 0's backward and reduce-scatter ({:g} ms)",
                   sim::to_ms(first_copy), 2 * L - kept, again, sim::to_ms(gathers),
                   sim::to_ms(last))},
      {"copy", copies + shortest_gather + last,
       fmt::format("{} copies one at a time ({}: {:g} ms), then a gather ({:g} ms), layer 0's "
                   "backward and reduce-scatter ({:g} ms)",
                   2 * L - kept, again, sim::to_ms(copies), sim::to_ms(shortest_gather),
                   sim::to_ms(last))},
  };
  streams.push_back(
      {"compute with its buffers", compute_with_buffers(s, copy, ag, f, b, rs, forwards_end),
       fmt::format("forwards and backwards one at a time, with {} parameter buffers (of layers "
                   "l .. l+{}, one is gathered after another's compute ends) and {} gradient "
                   "buffers (backward l waits for a reduce-scatter of layers l+1 .. l+{}), then "
                   "layer 0's reduce-scatter",
                   s.param_buffers, s.param_buffers, s.grad_buffers, s.grad_buffers)});
  if (s.param_buffers == 1) {
    // With one buffer, a gather holds it from its issue and a forward or backward needs its
    // own layer's: no gather overlaps any compute.
    streams.push_back(
        {"compute and all-gather together", first_copy + gathers + sum(f) + sum(b) + rs[0],
         fmt::format("with one parameter buffer no gather overlaps a forward or backward: a "
                     "first copy ({:g} ms), {} gathers ({:g} ms), every forward and backward "
                     "({:g} ms), then layer 0's reduce-scatter ({:g} ms)",
                     sim::to_ms(first_copy), 2 * L - 1, sim::to_ms(gathers),
                     sim::to_ms(sum(f) + sum(b)), sim::to_ms(rs[0]))});
  }
  if (s.grad_buffers == 1) {
    // With one gradient buffer, a backward waits for the reduce-scatter before it to complete.
    streams.push_back(
        {"compute and reduce-scatter together", forwards_end + sum(b) + sum(rs),
         fmt::format("with one gradient buffer each backward waits for the previous layer's "
                     "reduce-scatter: the forwards end no earlier than {:g} ms, then every "
                     "backward and reduce-scatter one after another ({:g} ms)",
                     sim::to_ms(forwards_end), sim::to_ms(sum(b) + sum(rs)))});
  }
  const Stream& busiest = *std::max_element(
      streams.begin(), streams.end(), [](const Stream& a, const Stream& c) { return a.t < c.t; });
  return {sim::to_ms(busiest.t),
          fmt::format("{}{}: {}", busiest.name, s.slow_rank >= 0 ? " of the slowest rank" : "",
                      busiest.how)};
}

}  // namespace overlap::fsdp
