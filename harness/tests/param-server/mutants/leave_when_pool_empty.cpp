// Mutant: each worker loops while the pool holds mini-batches and leaves the first time it finds
// it empty. A failed worker's mini-batch goes back to the pool, but after the pool has run dry
// (late-failure) every other worker has already left, and nobody takes it: a lost update. When
// the failure comes while the pool still holds work, the others pick it up (correct elsewhere).
#include <boost/asio.hpp>
#include <boost/asio/experimental/channel.hpp>
#include <boost/asio/experimental/parallel_group.hpp>
#include <deque>
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
  int working = 0;
};

awaitable<void> worker_loop(Training& t, int w) {
  ps::Worker& worker = t.cluster.worker(w);
  while (!t.pool.empty()) {  // the bug: empty now is not empty for good
    const int mb = t.pool.front();
    t.pool.pop_front();
    auto [pull_failed, weights] = co_await worker.async_pull(as_tuple(use_awaitable));
    if (pull_failed) {
      t.pool.push_back(mb);
      co_return;
    }
    auto [failed, gradient] =
        co_await worker.async_compute(std::move(weights), mb, as_tuple(use_awaitable));
    if (failed) {
      t.pool.push_back(mb);
      co_return;
    }
    co_await t.server.async_send(error_code{}, use_awaitable);
    const int bound = t.cluster.staleness_bound();
    if (bound >= 0 && t.cluster.server().version() - gradient.version() > bound) {
      t.server.try_receive([](error_code) {});
      t.pool.push_back(mb);
      if (t.working > 1) {  // too slow for the bound: retire
        --t.working;
        co_return;
      }
      continue;
    }
    co_await worker.async_push(std::move(gradient), use_awaitable);
    t.server.try_receive([](error_code) {});
  }
}

awaitable<void> train(ps::Cluster& cluster) {
  auto ex = co_await asio::this_coro::executor;
  Training t{cluster, Lock(ex, 1), {}};
  for (int mb = 0; mb < cluster.mini_batches(); ++mb) t.pool.push_back(mb);
  using Run = decltype(asio::co_spawn(ex, awaitable<void>{}, asio::deferred));
  std::vector<Run> runs;
  for (int w = 0; w < cluster.num_workers(); ++w) {
    ++t.working;
    runs.push_back(asio::co_spawn(ex, worker_loop(t, w), asio::deferred));
  }
  co_await asio::experimental::make_parallel_group(std::move(runs))
      .async_wait(asio::experimental::wait_for_all(), use_awaitable);
}

OVERLAP_TRAIN(train)
