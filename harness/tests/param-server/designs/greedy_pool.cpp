// Design: a greedy pool. Each worker takes the next mini-batch the moment it is free, pulls,
// computes, and pushes its own gradient under a lock (a channel of one); the staleness bound is
// checked under the lock, where nothing can apply in between, and a worker whose gradient is too
// stale gives its mini-batch back and retires. A failed worker's mini-batch goes back to the
// pool. A worker that finds the pool empty leaves: nobody wakes it for a mini-batch that comes
// back later, so such a mini-batch waits until everyone has left and a new wave of the live
// workers starts.
// Correct everywhere, but not optimal: with no end game a slow worker takes one of the last
// mini-batches and everyone waits for it, a returned mini-batch waits for the last worker to
// finish, and one push per gradient queues workers at the server and ages gradients.
#include <boost/asio.hpp>
#include <boost/asio/experimental/channel.hpp>
#include <boost/asio/experimental/parallel_group.hpp>
#include <deque>
#include <exception>
#include <overlap/param_server.hpp>
#include <vector>

namespace asio = boost::asio;
namespace ps = overlap::param_server;
using asio::as_tuple;
using asio::awaitable;
using asio::use_awaitable;
using boost::system::error_code;
using Lock = asio::experimental::channel<void(error_code)>;

struct Training {
  ps::Cluster& cluster;
  Lock server;
  std::deque<int> pool;
  std::vector<bool> retired;
  int working = 0;  // workers neither failed nor retired
  int applied = 0;
};

awaitable<void> worker_loop(Training& t, int w) {
  ps::Worker& worker = t.cluster.worker(w);
  while (!t.pool.empty()) {
    const int mb = t.pool.front();
    t.pool.pop_front();
    auto [pull_failed, weights] = co_await worker.async_pull(as_tuple(use_awaitable));
    if (pull_failed) {
      t.pool.push_back(mb);
      --t.working;
      co_return;
    }
    auto [failed, gradient] =
        co_await worker.async_compute(std::move(weights), mb, as_tuple(use_awaitable));
    if (failed) {
      t.pool.push_back(mb);
      --t.working;
      co_return;
    }
    co_await t.server.async_send(error_code{}, use_awaitable);
    const int bound = t.cluster.staleness_bound();
    const bool stale = bound >= 0 && t.cluster.server().version() - gradient.version() > bound;
    if (stale || worker.failed()) {
      t.server.try_receive([](error_code) {});
      t.pool.push_back(mb);
      if (worker.failed() || t.working > 1) {  // too slow for the bound: retire
        t.retired[w] = !worker.failed();
        --t.working;
        co_return;
      }
      continue;
    }
    co_await worker.async_push(std::move(gradient), use_awaitable);
    t.server.try_receive([](error_code) {});
    ++t.applied;
  }
}

awaitable<void> train(ps::Cluster& cluster) {
  auto ex = co_await asio::this_coro::executor;
  const int workers = cluster.num_workers();
  Training t{cluster, Lock(ex, 1), {}, std::vector<bool>(workers, false)};
  for (int mb = 0; mb < cluster.mini_batches(); ++mb) t.pool.push_back(mb);
  // Waves of the live workers, until every mini-batch is applied.
  while (t.applied < cluster.mini_batches()) {
    using Run = decltype(asio::co_spawn(ex, awaitable<void>{}, asio::deferred));
    std::vector<Run> runs;
    t.working = 0;
    for (int w = 0; w < workers; ++w) {
      if (cluster.worker(w).failed() || t.retired[w]) continue;
      ++t.working;
      runs.push_back(asio::co_spawn(ex, worker_loop(t, w), asio::deferred));
    }
    if (runs.empty()) {  // every live worker retired: the fastest of them comes back
      int fastest = -1;
      for (int w = 0; w < workers; ++w) {
        if (cluster.worker(w).failed()) continue;
        if (fastest < 0 ||
            cluster.worker(w).ms_per_gradient() < cluster.worker(fastest).ms_per_gradient()) {
          fastest = w;
        }
      }
      t.retired[fastest] = false;
      ++t.working;
      runs.push_back(asio::co_spawn(ex, worker_loop(t, fastest), asio::deferred));
    }
    auto [order, errors] = co_await asio::experimental::make_parallel_group(std::move(runs))
                               .async_wait(asio::experimental::wait_for_one_error(), use_awaitable);
    for (std::size_t i : order) {
      if (errors[i]) std::rethrow_exception(errors[i]);
    }
  }
}

OVERLAP_TRAIN(train)
