// Mutant: staleness checked as soon as the gradient is ready, before waiting for the server
// (check, then act). While the worker waits behind other pushes the server's version moves on, so
// a gradient within the bound when checked is applied over it. With four workers no gradient at
// the bound happens to wait (correct on the other scenarios); with 32 on many-staleness, many do.
#include <boost/asio.hpp>
#include <boost/asio/experimental/channel.hpp>
#include <boost/asio/experimental/parallel_group.hpp>
#include <overlap/param_server.hpp>
#include <vector>

namespace asio = boost::asio;
namespace ps = overlap::param_server;
using asio::as_tuple;
using asio::awaitable;
using asio::use_awaitable;
using boost::system::error_code;
using Pool = asio::experimental::channel<void(error_code, int)>;
using Lock = asio::experimental::channel<void(error_code)>;

struct Training {
  ps::Cluster& cluster;
  Pool pool;
  Lock server;
  int applied = 0;
  int working = 0;
};

awaitable<void> worker_loop(Training& t, int w) {
  ps::Worker& worker = t.cluster.worker(w);
  for (;;) {
    auto [closed, mb] = co_await t.pool.async_receive(as_tuple(use_awaitable));
    if (closed) co_return;
    auto [pull_failed, weights] = co_await worker.async_pull(as_tuple(use_awaitable));
    ps::Gradient gradient;
    error_code failed = pull_failed;
    if (!failed) {
      auto [compute_failed, g] =
          co_await worker.async_compute(std::move(weights), mb, as_tuple(use_awaitable));
      failed = compute_failed;
      gradient = std::move(g);
    }
    if (failed) {
      t.pool.try_send(error_code{}, mb);
      --t.working;
      co_return;
    }
    const int bound = t.cluster.staleness_bound();
    if (bound >= 0 && t.cluster.server().version() - gradient.version() > bound) {
      t.pool.try_send(error_code{}, mb);
      if (t.working > 1) {
        --t.working;
        co_return;
      }
      continue;
    }
    co_await t.server.async_send(error_code{}, use_awaitable);  // the bug: checked before this
    auto [push_failed] = co_await worker.async_push(std::move(gradient), as_tuple(use_awaitable));
    t.server.try_receive([](error_code) {});
    if (push_failed) {
      t.pool.try_send(error_code{}, mb);
      --t.working;
      co_return;
    }
    if (++t.applied == t.cluster.mini_batches()) t.pool.close();
  }
}

awaitable<void> train(ps::Cluster& cluster) {
  auto ex = co_await asio::this_coro::executor;
  Training t{cluster, Pool(ex, cluster.mini_batches()), Lock(ex, 1)};
  for (int mb = 0; mb < cluster.mini_batches(); ++mb) t.pool.try_send(error_code{}, mb);
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
