// Asynchronous SGD on a parameter server: every worker loops at its own speed, and one server
// coroutine hands out mini-batches and applies the gradients that come back.
//
// Ideas to name in the interview:
//  - Pull-based work: the server keeps the pool of mini-batches and gives the next one to any
//    worker that is idle, so fast workers do more; a static split would leave them idle.
//  - One owner: only the server coroutine touches the pool and the server device, so workers and
//    server share nothing but channels. No lock, and no two applies can meet on the server.
//  - Batching: the server averages every gradient waiting for it in one apply_average: one
//    update, one version. Nobody queues behind other workers' pushes, so the server stops being
//    the bottleneck (32 workers against a 0.5 ms apply). Updates still land one at a time.
//  - A failure is a value (as_tuple): the worker reports it and stops, and its mini-batch goes
//    back to the pool for an idle worker, even after the pool ran dry. Nobody waits for it.
//  - Staleness is checked where it is decided: by the server, just before the apply. A gradient
//    over the bound is wasted work, and its worker would be as slow next time: its mini-batch
//    goes back and it retires (unless it is the last worker, which is never stale).
//  - Pacing under a bound: each apply ages every gradient in flight by one version. With a
//    bound, the server applies once per cycle of a pacing worker, averaging all that arrived
//    meanwhile, so versions advance slowly enough for slower workers to stay within the bound.
//    Workers faster than the pacer wait for it, so the pacer is chosen from the speeds and the
//    bound: the one whose pace lets the cluster deliver the most gradients that count.
//  - The end game: near the end, a slow worker handed one of the last mini-batches makes
//    everyone wait for it. An idle worker takes one only if the others, busy as they are, could
//    not finish all that are left before it would finish its one.
//  - When the last mini-batch is applied, closing every mailbox ends the worker loops.
#include <algorithm>
#include <boost/asio.hpp>
#include <boost/asio/experimental/channel.hpp>
#include <boost/asio/experimental/parallel_group.hpp>
#include <cmath>
#include <deque>
#include <memory>
#include <numeric>
#include <overlap/param_server.hpp>
#include <vector>

namespace asio = boost::asio;
namespace ps = overlap::param_server;
using asio::as_tuple;
using asio::awaitable;
using asio::use_awaitable;
using boost::system::error_code;

// What a worker tells the server after a mini-batch: its gradient, or that the worker failed.
struct Report {
  int worker = -1;
  int mini_batch = -1;
  error_code failed;
  ps::Gradient gradient;
};
using Reports = asio::experimental::channel<void(error_code, Report)>;
using Mailbox = asio::experimental::channel<void(error_code, int)>;  // a worker's next mini-batch

// One worker: take a mini-batch from the mailbox, pull, compute, report; until the mailbox
// closes (training is over) or the worker fails.
awaitable<void> worker_loop(ps::Worker& worker, Mailbox& mailbox, Reports& reports) {
  for (;;) {
    auto [closed, mb] = co_await mailbox.async_receive(as_tuple(use_awaitable));
    if (closed) co_return;
    Report report;
    report.worker = worker.index();
    report.mini_batch = mb;
    auto [pull_failed, weights] = co_await worker.async_pull(as_tuple(use_awaitable));
    report.failed = pull_failed;
    if (!pull_failed) {
      auto [compute_failed, gradient] =
          co_await worker.async_compute(std::move(weights), mb, as_tuple(use_awaitable));
      report.failed = compute_failed;
      report.gradient = std::move(gradient);
    }
    const bool failed = static_cast<bool>(report.failed);
    // Then it waits on its mailbox: idle, as apply_average needs every sender to be.
    co_await reports.async_send(error_code{}, std::move(report), use_awaitable);
    if (failed) co_return;  // every later call on this worker fails too
  }
}

class Server {
 public:
  Server(ps::Cluster& cluster, int workers, std::vector<std::unique_ptr<Mailbox>>& mailboxes,
         Reports& reports)
      : cluster_(cluster),
        mailboxes_(mailboxes),
        reports_(reports),
        state_(workers, State::idle),
        fastest_first_(workers),
        working_(workers) {
    for (int mb = 0; mb < cluster.mini_batches(); ++mb) pool_.push_back(mb);
    std::iota(fastest_first_.begin(), fastest_first_.end(), 0);
    std::stable_sort(fastest_first_.begin(), fastest_first_.end(), [&](int a, int b) {
      return cluster.worker(a).ms_per_gradient() < cluster.worker(b).ms_per_gradient();
    });
    pace_ = choose_pace();
  }

  awaitable<void> run() {
    for (;;) {
      hand_out();
      if (applied_ == cluster_.mini_batches()) break;
      if (due()) {
        co_await apply();
        continue;
      }
      Report report = co_await reports_.async_receive(use_awaitable);
      take(std::move(report));
      // Reports that came in at the same instant join the same batch.
      while (reports_.try_receive([this](error_code, Report r) { take(std::move(r)); })) {
      }
    }
    for (auto& mailbox : mailboxes_) mailbox->close();
  }

 private:
  // computing: holds a mini-batch; reported: its gradient waits for the server; gone: failed
  // or retired.
  enum class State { idle, computing, reported, gone };

  // Idle workers take the next mini-batches, the fastest first.
  void hand_out() {
    for (int w : fastest_first_) {
      if (pool_.empty()) return;
      if (state_[w] != State::idle) continue;
      if (cluster_.worker(w).failed()) {
        stop(w);
        continue;
      }
      if (others_finish_sooner(w)) continue;  // it waits: a mini-batch may still come back
      mailboxes_[w]->try_send(error_code{}, pool_.front());
      pool_.pop_front();
      state_[w] = State::computing;
    }
  }

  // A worker's cycle: pull, compute, send. Pull and apply take about a millisecond each.
  double cycle_ms(int w) const { return cluster_.worker(w).ms_per_gradient() + 2; }

  // Whether the other workers would complete every mini-batch left in the pool before worker w
  // completed one. The server does not know where a busy worker is in its cycle: half-way, on
  // average.
  bool others_finish_sooner(int w) const {
    const double mine = cycle_ms(w);
    double sooner = 0;
    for (int j = 0; j < static_cast<int>(state_.size()); ++j) {
      if (j == w || (state_[j] != State::computing && state_[j] != State::reported)) continue;
      const double left = state_[j] == State::computing ? cycle_ms(j) / 2 : 0;
      sooner += std::max(0.0, std::floor((mine - left) / cycle_ms(j)));
      if (sooner >= static_cast<double>(pool_.size())) return true;
    }
    return false;
  }

  void take(Report report) {
    if (report.failed) {  // someone else does its mini-batch
      pool_.push_back(report.mini_batch);
      stop(report.worker);
      return;
    }
    state_[report.worker] = State::reported;
    waiting_.push_back(std::move(report));
  }

  // The pace is chosen again among those left: a pacer that failed must not hand its rank to a
  // slower worker that the fast ones would then wait for.
  void stop(int w) {
    state_[w] = State::gone;
    --working_;
    pace_ = choose_pace();
  }

  // Without a bound, apply as soon as a gradient waits. With one, wait for the pacer's gradient
  // too (unless it has nothing to compute): one version per its cycle. The pacer is the
  // pace_-th fastest working worker (the slowest, when fewer are left).
  bool due() const {
    if (waiting_.empty()) return false;
    if (pace_ == 0) return true;
    int rank = 0, pacer = -1;
    for (int w : fastest_first_) {
      if (state_[w] == State::gone) continue;
      pacer = w;
      if (++rank == pace_) break;
    }
    return pacer < 0 || state_[pacer] != State::computing;
  }

  // The pace under a bound, from the mean speeds of the workers left: 0 (apply whenever a
  // gradient waits) or the rank of the pacing worker among them, whichever delivers the most
  // gradients per ms within the bound.
  // Paced by worker p of cycle c_p, a worker faster than p delivers one gradient per c_p; a
  // slower one j waits half a c_p for the next apply, so its gradient is (c_j + c_p / 2) / c_p
  // versions old, plus one for an apply under way, and counts if that is within the bound.
  // Unpaced, versions advance as fast as gradients arrive, at most one per ms.
  int choose_pace() const {
    const int bound = cluster_.staleness_bound();
    if (bound < 0) return 0;
    std::vector<double> cycles;
    for (int w : fastest_first_) {
      if (state_[w] != State::gone) cycles.push_back(cycle_ms(w));
    }
    double arrivals = 0;
    for (double c : cycles) arrivals += 1 / c;
    const double version_rate = std::min(arrivals, 1.0);
    double best_rate = 0;
    for (double c : cycles) best_rate += c * version_rate + 1 <= bound ? 1 / c : 0;
    int best = 0;
    for (std::size_t p = 0; p < cycles.size(); ++p) {
      const double pace = cycles[p];
      double rate = 0;
      for (std::size_t j = 0; j < cycles.size(); ++j) {
        const double cycle = j <= p ? pace : cycles[j] + pace / 2;
        if (cycle / pace + 1 <= bound) rate += 1 / cycle;
      }
      if (rate > best_rate) {
        best_rate = rate;
        best = static_cast<int>(p) + 1;
      }
    }
    return best;
  }

  awaitable<void> apply() {
    const int bound = cluster_.staleness_bound();
    const int version = cluster_.server().version();
    std::vector<ps::Gradient> batch;
    std::vector<int> senders;
    for (Report& r : waiting_) {
      if (cluster_.worker(r.worker).failed()) {  // failed while it waited: it cannot send
        pool_.push_back(r.mini_batch);
        stop(r.worker);
      } else if (bound >= 0 && version - r.gradient.version() > bound) {
        pool_.push_back(r.mini_batch);
        if (working_ > 1) {
          stop(r.worker);  // too slow for the bound: retire
        } else {
          state_[r.worker] = State::idle;  // the last worker: recompute on fresh weights
        }
      } else {
        senders.push_back(r.worker);
        batch.push_back(std::move(r.gradient));
      }
    }
    waiting_.clear();
    if (batch.empty()) co_return;
    // Every sender was alive at this very instant, so the apply cannot fail.
    co_await cluster_.server().async_apply_average(std::move(batch), use_awaitable);
    applied_ += static_cast<int>(senders.size());
    for (int w : senders) state_[w] = State::idle;
  }

  ps::Cluster& cluster_;
  std::vector<std::unique_ptr<Mailbox>>& mailboxes_;
  Reports& reports_;
  std::deque<int> pool_;         // mini-batches no worker holds
  std::vector<Report> waiting_;  // gradients waiting for the next apply
  std::vector<State> state_;     // per worker
  std::vector<int> fastest_first_;
  int applied_ = 0;
  int working_;   // workers neither failed nor retired
  int pace_ = 0;  // under a bound, the rank of the pacing worker (choose_pace)
};

awaitable<void> train(ps::Cluster& cluster) {
  auto executor = co_await asio::this_coro::executor;
  const int workers = cluster.num_workers();
  Reports reports(executor, workers);  // room for every worker: sending never waits
  std::vector<std::unique_ptr<Mailbox>> mailboxes;
  for (int w = 0; w < workers; ++w) mailboxes.push_back(std::make_unique<Mailbox>(executor, 1));
  Server server(cluster, workers, mailboxes, reports);

  using Run = decltype(asio::co_spawn(executor, awaitable<void>{}, asio::deferred));
  std::vector<Run> runs;
  runs.push_back(asio::co_spawn(executor, server.run(), asio::deferred));
  for (int w = 0; w < workers; ++w) {
    runs.push_back(asio::co_spawn(executor, worker_loop(cluster.worker(w), *mailboxes[w], reports),
                                  asio::deferred));
  }
  auto [order, errors] = co_await asio::experimental::make_parallel_group(std::move(runs))
                             .async_wait(asio::experimental::wait_for_one_error(), use_awaitable);
  // The first to fail, in completion order: the others failed because it cancelled them.
  for (std::size_t i : order) {
    if (errors[i]) std::rethrow_exception(errors[i]);
  }
}

OVERLAP_TRAIN(train)
