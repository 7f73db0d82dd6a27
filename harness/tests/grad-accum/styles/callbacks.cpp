// Style: plain completion-handler callbacks. Every handler records its result in one shared
// state and calls pump(), which starts whatever can start now: a snapshot, validations, the
// optimizer step. A validation's handler decides early stopping in check order; the decision
// cancels what still runs through each operation's cancellation slot. train only waits.
#include <boost/asio.hpp>
#include <boost/asio/experimental/channel.hpp>
#include <deque>
#include <map>
#include <memory>
#include <overlap/grad_accum.hpp>
#include <vector>

namespace asio = boost::asio;
namespace ga = overlap::grad_accum;
using boost::system::error_code;
using Finished = asio::experimental::channel<void(error_code)>;

// Shared with every handler, so that the cancelled ones may still run after train returns.
struct Run : std::enable_shared_from_this<Run> {
  Run(ga::Trainer& trainer, Finished& done) : t(trainer), finished(done) {
    auto finish = [&](int w) { return (share[w] + 1) * t.worker(w).ms_per_gradient(); };
    for (int i = 0; i < n; ++i) {  // each micro-batch to the worker that would finish it first
      int w = 0;
      for (int v = 1; v < workers; ++v) w = finish(v) < finish(w) ? v : w;
      ++share[w];
    }
  }
  ga::Trainer& t;
  Finished& finished;
  const int n = t.micro_batches_per_step(), workers = t.num_workers(), every = t.validate_every();
  std::vector<int> share = std::vector<int>(workers), left;  // micro-batches per step
  ga::Weights weights;                                       // the current step's
  std::vector<ga::Gradient> gradients;
  int next_mb = 0, gradients_in = 0, slots_used = 0, next_check = 1, without_improvement = 0;
  bool snapshot_due = false, stopped = false;
  std::deque<ga::Snapshot> queue;  // snapshots waiting for a validator
  std::vector<bool> validating = std::vector<bool>(t.num_validators());
  std::map<int, ga::Checkpoint> results;  // by check number, until decided
  ga::Checkpoint best;
  // One per device: workers, then validators, then the optimizer.
  std::vector<asio::cancellation_signal> cancel =
      std::vector<asio::cancellation_signal>(workers + t.num_validators() + 1);

  bool over(error_code ec) {  // first in every handler: true when there is nothing left to do
    if (ec && !stopped) finished.try_send(ec);
    stopped = stopped || ec;
    return stopped;
  }

  void start_step() {
    weights = t.weights();
    gradients = std::vector<ga::Gradient>(n);
    left = share;
    next_mb = t.step() * n;
    for (int w = 0; w < workers; ++w) compute(w);
  }

  void compute(int w) {
    if (left[w] == 0) return;
    --left[w];
    auto computed = [this, w, self = shared_from_this()](error_code ec, ga::Gradient g) {
      if (over(ec)) return;
      gradients[g.micro_batch() % n] = std::move(g);
      ++gradients_in;
      compute(w);
      pump();
    };
    t.worker(w).async_compute(weights, next_mb++,
                              asio::bind_cancellation_slot(cancel[w].slot(), computed));
  }

  void pump() {
    if (snapshot_due && slots_used < t.snapshot_slots()) {
      queue.push_back(t.snapshot());
      ++slots_used;
      snapshot_due = false;
    }
    for (int v = 0; v < t.num_validators() && !queue.empty(); ++v) {
      if (validating[v]) continue;
      auto validated = [this, v, self = shared_from_this()](error_code ec, ga::Checkpoint c) {
        validating[v] = false;
        --slots_used;
        if (over(ec)) return;
        results.emplace(c.step() / every, c);
        if (!decide()) pump();
      };
      validating[v] = true;
      t.validator(v).async_validate(
          std::move(queue.front()),
          asio::bind_cancellation_slot(cancel[workers + v].slot(), validated));
      queue.pop_front();
    }
    if (gradients_in < n || snapshot_due) return;  // c*K+1 waits for c's snapshot
    auto applied = [this, self = shared_from_this()](error_code ec) {
      if (over(ec)) return;
      snapshot_due = t.step() % every == 0;
      if (t.step() < t.max_steps()) start_step();  // the same weights as the snapshot's
      pump();
    };
    gradients_in = 0;  // also marks the optimizer busy
    t.async_apply(std::move(gradients),
                  asio::bind_cancellation_slot(cancel.back().slot(), applied));
  }

  bool decide() {  // early stopping over the checks in order; true once decided
    for (auto it = results.find(next_check); it != results.end(); it = results.find(++next_check)) {
      const bool improved = best.step() < 0 || it->second.loss() < best.loss() - t.min_delta();
      without_improvement = improved ? 0 : without_improvement + 1;
      if (improved) best = it->second;
      if (without_improvement == t.patience() || next_check == t.max_steps() / every) {
        t.stop(best);
        stopped = true;
        for (auto& signal : cancel) signal.emit(asio::cancellation_type::terminal);
        finished.try_send(error_code{});
        return true;
      }
    }
    return false;
  }
};

asio::awaitable<void> train(ga::Trainer& t) {
  Finished finished(co_await asio::this_coro::executor, 1);
  std::make_shared<Run>(t, finished)->start_step();
  co_await finished.async_receive(asio::use_awaitable);  // throws the first error, if any
}

OVERLAP_TRAIN(train)
