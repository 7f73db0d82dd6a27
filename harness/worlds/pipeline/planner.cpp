#include "planner.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cstddef>
#include <utility>

namespace overlap::pipeline::planner {

namespace {

// Interleavings tried one by one when their product over the stages is at most this.
constexpr long kExhaustive = 4000;
// Operations the swap search may simulate in all (a few milliseconds).
constexpr long kSwapWork = 400'000;

struct Times {
  int p = 0;
  int m = 0;
  std::vector<sim::Time> f, b;
  std::vector<int> budget;
};

Times times_of(const Scenario& s) {
  Times t;
  t.p = s.stages();
  t.m = s.micro_batches;
  for (int i = 0; i < t.p; ++i) {
    t.f.push_back(sim::from_ms(s.forward_ms[i]));
    t.b.push_back(sim::from_ms(s.backward_ms[i]));
  }
  t.budget = s.stashes;
  return t;
}

// The most stashes the order holds at once, or -1 if it is not a step of m micro-batches within
// `budget` (a backward before its forward, a micro-batch missing or run twice).
int peak_of(const StageOrder& order, int m, int budget) {
  int fw = 0, bw = 0, peak = 0;
  for (char forward : order) {
    if (forward) {
      if (fw == m) return -1;
      peak = std::max(peak, ++fw - bw);
    } else {
      if (bw == fw) return -1;
      ++bw;
    }
  }
  return fw == m && bw == m && peak <= budget ? peak : -1;
}

// List scheduling of fixed orders: the makespan, or -1 on a deadlock. Reuses its buffers.
class OrderRunner {
 public:
  explicit OrderRunner(const Times& t) : t_(t) {}

  sim::Time run(const Orders& orders) {
    const int p = t_.p, m = t_.m;
    f_end_.assign(std::size_t(p) * m, -1);
    b_end_.assign(std::size_t(p) * m, -1);
    next_.assign(p, 0);
    fw_.assign(p, 0);
    bw_.assign(p, 0);
    free_.assign(p, 0);
    sim::Time makespan = 0;
    long done = 0;
    for (bool progress = true; progress;) {
      progress = false;
      for (int s = 0; s < p; ++s) {
        const StageOrder& order = orders[s];
        while (next_[s] < order.size()) {
          const bool forward = order[next_[s]];
          const int mb = forward ? fw_[s] : bw_[s];
          const sim::Time ready = forward
                                      ? (s == 0 ? 0 : f_end_[at(s - 1, mb)])
                                      : (s == p - 1 ? f_end_[at(s, mb)] : b_end_[at(s + 1, mb)]);
          if (ready < 0) break;
          const sim::Time end = std::max(ready, free_[s]) + (forward ? t_.f[s] : t_.b[s]);
          (forward ? f_end_ : b_end_)[at(s, mb)] = end;
          ++(forward ? fw_ : bw_)[s];
          free_[s] = end;
          makespan = std::max(makespan, end);
          ++next_[s];
          ++done;
          progress = true;
        }
      }
    }
    work_ += done;
    return done == 2L * p * m ? makespan : -1;
  }

  long work() const { return work_; }

 private:
  std::size_t at(int s, int mb) const { return std::size_t(s) * t_.m + mb; }

  const Times& t_;
  std::vector<sim::Time> f_end_, b_end_, free_;
  std::vector<std::size_t> next_;
  std::vector<int> fw_, bw_;
  long work_ = 0;
};

std::string joined(const std::vector<int>& v) { return fmt::format("{}", fmt::join(v, ", ")); }

const char* rule_name(Rule rule) {
  switch (rule) {
    case Rule::alternate:
      return "forwards up to 1F1B's depth, then alternating forward and backward, else whatever "
             "is ready";
    case Rule::backward_first:
      return "a ready backward first";
    case Rule::forward_first:
      return "a forward first while the stashes allow";
    case Rule::oldest_first:
      return "whichever input arrived first";
  }
  return "?";
}

// Every order of m forwards and m backwards a stage may run within its budget, up to `limit`.
void interleavings(int m, int budget, StageOrder& prefix, int fw, int bw,
                   std::vector<StageOrder>& out, long limit) {
  if (static_cast<long>(out.size()) > limit) return;
  if (bw == m) {
    out.push_back(prefix);
    return;
  }
  if (fw < m && fw - bw < budget) {
    prefix.push_back(1);
    interleavings(m, budget, prefix, fw + 1, bw, out, limit);
    prefix.pop_back();
  }
  if (bw < fw) {
    prefix.push_back(0);
    interleavings(m, budget, prefix, fw, bw + 1, out, limit);
    prefix.pop_back();
  }
}

struct Best {
  sim::Time step = -1;
  Orders orders;
  std::string note;

  void consider(sim::Time makespan, const Orders& o, std::string how) {
    if (makespan < 0 || (step >= 0 && makespan >= step)) return;
    step = makespan;
    orders = o;
    note = std::move(how);
  }
};

// Tries every combination of the stages' interleavings; false if there are too many.
bool exhaustive(const Times& t, OrderRunner& runner, Best& best) {
  std::vector<std::vector<StageOrder>> choices(t.p);
  long product = 1;
  for (int s = 0; s < t.p; ++s) {
    StageOrder prefix;
    interleavings(t.m, t.budget[s], prefix, 0, 0, choices[s], kExhaustive);
    product *= static_cast<long>(choices[s].size());
    if (product > kExhaustive) return false;
  }
  std::vector<std::size_t> pick(t.p, 0);
  Orders orders(t.p);
  for (;;) {
    for (int s = 0; s < t.p; ++s) orders[s] = choices[s][pick[s]];
    best.consider(runner.run(orders), orders, "an exhaustive search of every interleaving");
    int s = 0;
    while (s < t.p && ++pick[s] == choices[s].size()) pick[s++] = 0;
    if (s == t.p) return true;
  }
}

// Swaps neighbouring forward/backward pairs of the orders (a step of `step`, reached as `from`
// says) while that shortens the step.
void swap_search(const Times& t, OrderRunner& runner, Best& best, Orders orders, sim::Time step,
                 const std::string from) {
  const long start = runner.work();
  for (bool improved = true; improved;) {
    improved = false;
    for (int s = 0; s < t.p; ++s) {
      StageOrder& order = orders[s];
      for (std::size_t i = 0; i + 1 < order.size(); ++i) {
        if (runner.work() - start > kSwapWork) return;
        if (order[i] == order[i + 1]) continue;
        std::swap(order[i], order[i + 1]);
        const sim::Time makespan = peak_of(order, t.m, t.budget[s]) < 0 ? -1 : runner.run(orders);
        if (makespan >= 0 && makespan < step) {
          step = makespan;
          improved = true;
          best.consider(makespan, orders,
                        fmt::format("{}, then swaps of neighbouring operations", from));
        } else {
          std::swap(order[i], order[i + 1]);
        }
      }
    }
  }
}

}  // namespace

Step run_orders(const Scenario& s, Orders orders) {
  const Times t = times_of(s);
  Step step;
  for (int i = 0; i < t.p; ++i) {
    const int peak = peak_of(orders[i], t.m, t.budget[i]);
    if (peak < 0) return step;
    step.peak_stashes.push_back(peak);
  }
  OrderRunner runner(t);
  step.makespan = runner.run(orders);
  step.orders = std::move(orders);
  return step;
}

Orders one_f_one_b(const Scenario& s, const std::vector<int>& warmup) {
  const int p = s.stages(), m = s.micro_batches;
  Orders orders(p);
  for (int i = 0; i < p; ++i) {
    int fw = 0, bw = 0;
    while (fw < std::min(warmup[i], m)) orders[i].push_back(1), ++fw;
    while (fw < m) orders[i].push_back(1), ++fw, orders[i].push_back(0), ++bw;
    while (bw < m) orders[i].push_back(0), ++bw;
  }
  return orders;
}

Orders gpipe_waves(const Scenario& s, int wave) {
  const int p = s.stages(), m = s.micro_batches;
  Orders orders(p);
  for (int i = 0; i < p; ++i) {
    for (int first = 0; first < m; first += wave) {
      const int n = std::min(wave, m - first);
      orders[i].insert(orders[i].end(), n, 1);
      orders[i].insert(orders[i].end(), n, 0);
    }
  }
  return orders;
}

Step run_self_timed(const Scenario& sc, Rule rule, const std::vector<int>& caps) {
  const Times t = times_of(sc);
  const int p = t.p, m = t.m;
  auto at = [m](int s, int mb) { return std::size_t(s) * m + mb; };
  // When each input reached its stage: a forward's activation, a backward's gradient.
  std::vector<sim::Time> activation(std::size_t(p) * m, -1), gradient(std::size_t(p) * m, -1);
  for (int mb = 0; mb < m; ++mb) activation[at(0, mb)] = 0;
  std::vector<int> fw(p, 0), bw(p, 0), held(p, 0);
  std::vector<sim::Time> until(p, -1);  // the end of what the stage runs, -1 when idle
  std::vector<char> running_forward(p, 0), last_forward(p, 0);
  std::vector<int> running_mb(p, 0);
  Step step;
  step.orders.assign(p, {});
  step.peak_stashes.assign(p, 0);
  sim::Time now = 0;
  for (;;) {
    for (int s = 0; s < p; ++s) {
      if (until[s] >= 0) continue;
      const bool can_f = fw[s] < m && activation[at(s, fw[s])] >= 0 && held[s] < caps[s];
      const bool can_b = bw[s] < fw[s] && gradient[at(s, bw[s])] >= 0;
      if (!can_f && !can_b) continue;
      bool forward = can_f;
      switch (rule) {
        case Rule::alternate:
          if (!(can_f && held[s] < p - s)) forward = last_forward[s] ? !can_b : can_f;
          break;
        case Rule::backward_first:
          forward = !can_b;
          break;
        case Rule::forward_first:
          break;
        case Rule::oldest_first:
          if (can_f && can_b) forward = activation[at(s, fw[s])] < gradient[at(s, bw[s])];
          break;
      }
      running_forward[s] = last_forward[s] = forward;
      step.orders[s].push_back(forward);
      if (forward) {
        running_mb[s] = fw[s]++;
        step.peak_stashes[s] = std::max(step.peak_stashes[s], ++held[s]);
        until[s] = now + t.f[s];
      } else {
        running_mb[s] = bw[s]++;
        until[s] = now + t.b[s];
      }
    }
    sim::Time next = -1;
    for (int s = 0; s < p; ++s) {
      if (until[s] >= 0 && (next < 0 || until[s] < next)) next = until[s];
    }
    if (next < 0) break;
    now = next;
    // Everything that ends now lands before any stage chooses again.
    for (int s = 0; s < p; ++s) {
      if (until[s] != now) continue;
      until[s] = -1;
      const int mb = running_mb[s];
      if (running_forward[s]) {
        (s + 1 < p ? activation[at(s + 1, mb)] : gradient[at(s, mb)]) = now;
      } else {
        --held[s];
        if (s > 0) gradient[at(s - 1, mb)] = now;
      }
    }
  }
  for (int s = 0; s < p; ++s) {
    if (bw[s] < m) return step;  // stuck: makespan stays -1
  }
  step.makespan = now;
  return step;
}

BestKnown best_known(const Scenario& s, Breadth breadth) {
  const Times t = times_of(s);
  const int p = t.p, m = t.m;
  OrderRunner runner(t);
  Best best;
  // The makespan of the orders (-1: over a budget, or a deadlock), considered for the best.
  auto consider_orders = [&](const Orders& orders, std::string note) -> sim::Time {
    for (int i = 0; i < p; ++i) {
      if (peak_of(orders[i], m, t.budget[i]) < 0) return -1;
    }
    const sim::Time makespan = runner.run(orders);
    best.consider(makespan, orders, std::move(note));
    return makespan;
  };

  std::vector<int> classic(p), deepest(p);
  for (int i = 0; i < p; ++i) classic[i] = std::min(p - i - 1, m - 1);
  std::vector<int> best_warmup = classic;
  sim::Time best_1f1b = consider_orders(
      one_f_one_b(s, classic), fmt::format("1F1B, warm-up of {} forwards", joined(classic)));
  for (int extra = 1; extra < m; ++extra) {
    std::vector<int> warmup(p);
    for (int i = 0; i < p; ++i) {
      warmup[i] = std::max(classic[i], std::min({p - i - 1 + extra, t.budget[i] - 1, m - 1}));
    }
    if (warmup == deepest) continue;
    deepest = warmup;
    const sim::Time makespan = consider_orders(
        one_f_one_b(s, warmup), fmt::format("1F1B, deeper warm-up of {} forwards", joined(warmup)));
    if (makespan >= 0 && (best_1f1b < 0 || makespan < best_1f1b)) {
      best_1f1b = makespan;
      best_warmup = warmup;
    }
  }

  std::vector<Best> starts;  // for the wide search's swaps
  std::vector<int> one_f_one_b_depth(p);
  for (int i = 0; i < p; ++i) one_f_one_b_depth[i] = std::min(t.budget[i], p - i);
  for (Rule rule :
       {Rule::alternate, Rule::backward_first, Rule::forward_first, Rule::oldest_first}) {
    const Step full = run_self_timed(s, rule, t.budget);
    starts.push_back({full.makespan, full.orders,
                      fmt::format("self-timed, {}, within the stash budget", rule_name(rule))});
    best.consider(full.makespan, full.orders, starts.back().note);
    const Step shallow = run_self_timed(s, rule, one_f_one_b_depth);
    starts.push_back({shallow.makespan, shallow.orders,
                      fmt::format("self-timed, {}, within 1F1B's p - s stashes", rule_name(rule))});
    best.consider(shallow.makespan, shallow.orders, starts.back().note);
  }

  const int widest = std::min(m, *std::min_element(t.budget.begin(), t.budget.end()));
  for (int wave = 1; wave <= widest; ++wave) {
    consider_orders(gpipe_waves(s, wave), fmt::format("GPipe in waves of {}", wave));
  }

  const bool every_interleaving = exhaustive(t, runner, best);
  if (!every_interleaving) swap_search(t, runner, best, best.orders, best.step, best.note);

  // Wide: one stage's warm-up at a time varied over its budget, from the best 1F1B, while that
  // helps (one stage deeper than the rest can cover another's slow backward).
  for (bool improved = breadth == Breadth::wide && best_1f1b >= 0; improved;) {
    improved = false;
    for (int i = 0; i < p; ++i) {
      for (int w = 0; w <= std::min(t.budget[i] - 1, m - 1); ++w) {
        std::vector<int> warmup = best_warmup;
        warmup[i] = w;
        const sim::Time makespan = consider_orders(
            one_f_one_b(s, warmup), fmt::format("1F1B, warm-ups of {} forwards", joined(warmup)));
        if (makespan >= 0 && makespan < best_1f1b) {
          best_1f1b = makespan;
          best_warmup = warmup;
          improved = true;
        }
      }
    }
  }
  // Wide: the swaps from the best 1F1B and from each self-timed schedule too, each of which may
  // lead to a better step than the swaps from the best.
  if (breadth == Breadth::wide && !every_interleaving) {
    if (best_1f1b >= 0) {
      starts.push_back({best_1f1b, one_f_one_b(s, best_warmup),
                        fmt::format("1F1B, warm-ups of {} forwards", joined(best_warmup))});
    }
    for (const Best& start : starts) {
      if (start.step >= 0) swap_search(t, runner, best, start.orders, start.step, start.note);
    }
  }
  if (best.step == sim::from_ms(lower_bound(s).ms)) best.note += "; the lower bound, so optimal";
  return {best.step, best.note};
}

}  // namespace overlap::pipeline::planner
