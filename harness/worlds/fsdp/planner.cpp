#include "planner.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <vector>

#include "../../sim/time.hpp"

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

double prefetching_ms(const Scenario& s, const std::vector<char>& kept) {
  const int L = s.layers, P = s.param_buffers, G = s.grad_buffers;
  // Positions: forwards 0 .. L-1, then the layers not kept, regathered from the highest down. A
  // release's index among all releases in time order: the forwards of the layers not kept, then
  // every backward from L-1 down.
  std::vector<int> dropped;  // the layers not kept, from 0 up
  for (int l = 0; l < L; ++l) {
    if (!kept[l]) dropped.push_back(l);
  }
  const int R = static_cast<int>(dropped.size()), N = L + R;
  std::vector<int> position(L);  // of the gather a layer's backward uses
  for (int l = 0; l < L; ++l) position[l] = l;
  for (int j = 0; j < R; ++j) position[dropped[R - 1 - j]] = L + j;
  auto layer_at = [&](int i) { return i < L ? i : dropped[R - 1 - (i - L)]; };
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
    if (k < R) return x.forward_end[dropped[k]];
    return x.backward_end[L - 1 - (k - R)];
  };
  auto backward = [&](int l) {
    for (RankTimes& x : ranks) {
      Time start = std::max(gather_end[position[l]],
                            l == L - 1 ? x.forward_end[L - 1] : x.backward_end[l + 1]);
      if (l + G < L) start = std::max(start, rs_end[l + G]);  // a gradient buffer
      x.backward_end[l] = start + ms(s.backward_on(x.rank, l));
      x.rs_issue[l] = std::max(x.backward_end[l], l == L - 1 ? 0 : rs_end[l + 1]);
    }
    Time last = 0;
    for (const RankTimes& x : ranks) last = std::max(last, x.rs_issue[l]);
    rs_end[l] = last + ms(s.reduce_scatter(l));
  };
  // The backward of layer l, and of the kept layers below it down to the next regathered one.
  auto backwards_from = [&](int l) {
    backward(l);
    for (--l; l >= 0 && kept[l]; --l) backward(l);
  };

  // Every dependency points to an earlier position (at most P layers kept): one pass settles
  // them all.
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
      backwards_from(L - 1);
    } else if (i >= L) {
      backwards_from(l);
    }
  }
  return sim::to_ms(rs_end[0]);  // the optimizer step costs nothing
}

double prefetching_ms(const Scenario& s, int kept) {
  const int L = s.layers;
  kept = std::clamp(kept, 1, std::min(s.param_buffers, L));
  std::vector<char> last(L, 0);
  std::fill(last.end() - kept, last.end(), 1);
  return prefetching_ms(s, last);
}

namespace {

std::string kept_layers(const std::vector<char>& kept) {
  std::vector<int> layers;
  for (int l = 0; l < static_cast<int>(kept.size()); ++l) {
    if (kept[l]) layers.push_back(l);
  }
  const int n = static_cast<int>(layers.size());
  if (layers.front() == static_cast<int>(kept.size()) - n) {
    return n == 1 ? "the last layer stays" : fmt::format("the last {} layers stay", n);
  }
  return fmt::format("layers {} stay", fmt::join(layers, ", "));
}

}  // namespace

Plan best_known(const Scenario& s, Breadth breadth) {
  const int L = s.layers, most = std::min(s.param_buffers, L);
  Plan best;
  std::vector<char> best_kept;
  for (int kept = 1; kept <= most; ++kept) {
    std::vector<char> last(L, 0);
    std::fill(last.end() - kept, last.end(), 1);
    const double ms = prefetching_ms(s, last);
    if (kept == 1 || ms <= best.ms) best.ms = ms, best_kept = last;  // ties: fewer gathers
  }
  // Wide: one layer kept more, less or instead of another (never the last), while that helps.
  for (bool improved = breadth == Breadth::wide; improved;) {
    improved = false;
    for (int a = 0; a + 1 < L; ++a) {
      for (int b = -1; b + 1 < L; ++b) {
        std::vector<char> kept = best_kept;
        if (b < 0) {
          kept[a] = !kept[a];
        } else if (kept[a] && !kept[b]) {
          kept[a] = 0, kept[b] = 1;
        } else {
          continue;
        }
        if (std::count(kept.begin(), kept.end(), 1) > most) continue;
        const double ms = prefetching_ms(s, kept);
        if (ms < best.ms) best.ms = ms, best_kept = kept, improved = true;
      }
    }
  }
  const std::string turn = kept_layers(best_kept);
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
