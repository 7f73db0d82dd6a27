// Design: the fastest workers only, and one average per speed group. Workers whose mean time is
// within twice the fastest's take mini-batches from a pool; the server applies a group's
// gradients in one apply_average once every working worker of that speed has its gradient in,
// so a group pulls, computes and sends together. A failed worker's mini-batch goes back to the
// pool (and if the whole team fails, the others come in); under a staleness bound, a too stale
// gradient's mini-batch goes back and its worker retires (unless it is the last one). Correct
// everywhere and rarely `optimal`: the slower workers sit out, a fast group waits for its slowest
// draw, and with speeds drawn apart a group is one worker. The world's planner searches its
// family (worlds/param-server/planner.hpp: group) and grades it exactly (group_average.cmake).
#include <algorithm>
#include <boost/asio.hpp>
#include <boost/asio/experimental/channel.hpp>
#include <boost/asio/experimental/parallel_group.hpp>
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
    // The team: the workers within twice the fastest's mean time; the others sit out.
    const double fastest = cluster.worker(fastest_first_[0]).ms_per_gradient();
    for (int w = 0; w < workers; ++w) {
      if (cluster.worker(w).ms_per_gradient() > 2 * fastest) {
        state_[w] = State::gone;
        --working_;
        benched_.push_back(w);
      }
    }
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
      if (state_[w] == State::idle && cluster_.worker(w).failed()) stop(w);
    }
    if (working_ == 0) {  // the whole team failed: those who sat out come in
      for (int w : benched_) {
        state_[w] = State::idle;
        ++working_;
      }
      benched_.clear();
    }
    for (int w : fastest_first_) {
      if (pool_.empty()) return;
      if (state_[w] != State::idle) continue;
      mailboxes_[w]->try_send(error_code{}, pool_.front());
      pool_.pop_front();
      state_[w] = State::computing;
    }
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

  void stop(int w) {
    state_[w] = State::gone;
    --working_;
  }

  // A speed group is complete when none of its workers is computing: every gradient it will
  // send is in.
  bool complete(int w) const {
    const double speed = cluster_.worker(w).ms_per_gradient();
    for (int j = 0; j < static_cast<int>(state_.size()); ++j) {
      if (state_[j] == State::computing && cluster_.worker(j).ms_per_gradient() == speed) {
        return false;
      }
    }
    return true;
  }

  bool due() const {
    return std::any_of(waiting_.begin(), waiting_.end(),
                       [&](const Report& r) { return complete(r.worker); });
  }

  awaitable<void> apply() {
    const int bound = cluster_.staleness_bound();
    const int version = cluster_.server().version();
    std::vector<ps::Gradient> batch;
    std::vector<int> senders;
    std::vector<Report> later;  // of groups still computing
    for (Report& r : waiting_) {
      if (!complete(r.worker)) {
        later.push_back(std::move(r));
      } else if (cluster_.worker(r.worker).failed()) {  // failed while it waited: it cannot send
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
    waiting_ = std::move(later);
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
  int working_;               // workers neither failed, retired nor sitting out
  std::vector<int> benched_;  // outside the team, until the whole team has failed
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
