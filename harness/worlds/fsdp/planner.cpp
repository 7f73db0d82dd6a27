#include "planner.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <vector>

#include "../../core/time.hpp"

namespace overlap::fsdp {

namespace {

using sim::Time;

// One rank's times. Ranks other than the straggler behave alike, so one stands for them all.
struct RankTimes {
  int rank = 0;
  std::vector<Time> copy_end, gather_issue;  // per position in the order of need
  std::vector<Time> forward_end, backward_end;
  std::vector<Time> rs_issue;
};

}  // namespace

double prefetching_ms(const Scenario& s, int kept) {
  const int L = s.layers, P = s.param_buffers, G = s.grad_buffers;
  kept = std::clamp(kept, 1, std::min(P, L));
  // Positions: forwards 0 .. L-1, then the regathered layers L-kept-1 .. 0. A regathered layer's
  // position is also the index of its release among all releases in time order (the forwards of
  // the layers not kept, then every backward from L-1 down).
  const int N = 2 * L - kept;
  auto layer_at = [&](int i) { return i < L ? i : 2 * L - kept - 1 - i; };
  auto backward_position = [&](int l) { return l >= L - kept ? l : 2 * L - kept - 1 - l; };
  auto ms = [](double v) { return sim::from_ms(v); };

  std::vector<RankTimes> ranks(1);
  if (s.slow_rank >= 0 && s.ranks > 1) {
    ranks.resize(2);
    ranks[0].rank = s.slow_rank == 0 ? 1 : 0;
    ranks[1].rank = s.slow_rank;
  }
  for (RankTimes& x : ranks) {
    x.copy_end.assign(N, 0), x.gather_issue.assign(N, 0);
    x.forward_end.assign(L, 0), x.backward_end.assign(L, 0), x.rs_issue.assign(L, 0);
  }
  std::vector<Time> gather_end(N, 0), rs_end(L, 0);

  // The k-th release of a parameter buffer, in time order.
  auto released = [&](const RankTimes& x, int k) {
    if (k < L - kept) return x.forward_end[k];
    return x.backward_end[L - 1 - (k - (L - kept))];
  };
  auto backward = [&](int l) {
    for (RankTimes& x : ranks) {
      Time start = std::max(gather_end[backward_position(l)],
                            l == L - 1 ? x.forward_end[L - 1] : x.backward_end[l + 1]);
      if (l + G < L) start = std::max(start, rs_end[l + G]);  // a gradient buffer
      x.backward_end[l] = start + ms(s.backward_on(x.rank, l));
      x.rs_issue[l] = std::max(x.backward_end[l], l == L - 1 ? 0 : rs_end[l + 1]);
    }
    Time last = 0;
    for (const RankTimes& x : ranks) last = std::max(last, x.rs_issue[l]);
    rs_end[l] = last + ms(s.reduce_scatter(l));
  };

  // Every dependency points to an earlier position: one pass settles them all.
  for (int i = 0; i < N; ++i) {
    const int l = layer_at(i);
    Time last_issue = 0;
    for (RankTimes& x : ranks) {
      Time copy_start = i == 0 ? 0 : x.copy_end[i - 1];
      if (i >= L) copy_start = std::max(copy_start, x.gather_issue[l]);  // its first gather's
      x.copy_end[i] = copy_start + ms(s.copy(l));
      Time issue = x.copy_end[i];
      if (i > 0) issue = std::max(issue, gather_end[i - 1]);
      if (i >= P) issue = std::max(issue, released(x, i - P));
      if (i >= L) issue = std::max(issue, x.forward_end[l]);  // its own first release
      x.gather_issue[i] = issue;
      last_issue = std::max(last_issue, issue);
    }
    gather_end[i] = last_issue + ms(s.all_gather(l));
    if (i < L) {
      for (RankTimes& x : ranks) {
        x.forward_end[i] = std::max(gather_end[i], i == 0 ? 0 : x.forward_end[i - 1]) +
                           ms(s.forward_on(x.rank, i));
      }
    }
    if (i == L - 1) {
      for (int k = L - 1; k >= L - kept; --k) backward(k);
    } else if (i >= L) {
      backward(l);
    }
  }
  return sim::to_ms(rs_end[0]);  // the optimizer step costs nothing
}

Plan best_known(const Scenario& s) {
  Plan best;
  int best_kept = 1;
  for (int kept = 1; kept <= std::min(s.param_buffers, s.layers); ++kept) {
    const double ms = prefetching_ms(s, kept);
    if (kept == 1 || ms <= best.ms) best.ms = ms, best_kept = kept;  // ties: fewer gathers
  }
  const std::string turn =
      best_kept == 1 ? "the last layer stays" : fmt::format("the last {} layers stay", best_kept);
  best.note = fmt::format(
      "{:g} ms: every rank gathers each next layer as soon as one of its {} parameter buffer{} "
      "is free, and copies ahead as far as the copy engine allows; {} gathered from forward "
      "through backward; each reduce-scatter runs under the next backwards, within {} gradient "
      "buffer{}",
      best.ms, s.param_buffers, s.param_buffers > 1 ? "s" : "", turn, s.grad_buffers,
      s.grad_buffers > 1 ? "s" : "");
  return best;
}

}  // namespace overlap::fsdp
