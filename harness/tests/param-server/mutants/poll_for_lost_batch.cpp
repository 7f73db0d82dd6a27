// Mutant: a worker that fails drops the mini-batch it held, and the others, once the pool is
// empty, wait for the server to reach mini_batches() updates by polling with pulls. It never
// does: the run is stopped past 20 times the baseline's virtual time (time limit).
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
using Lock = asio::experimental::channel<void(boost::system::error_code)>;

awaitable<void> worker_loop(ps::Cluster& cluster, Lock& server, int& next, int w) {
  ps::Worker& worker = cluster.worker(w);
  const int total = cluster.mini_batches();
  for (;;) {
    if (next == total) {
      if (cluster.server().version() == total) co_return;
      co_await worker.async_pull(use_awaitable);  // wait for the last pushes
      continue;
    }
    const int mb = next++;
    auto [pull_failed, weights] = co_await worker.async_pull(as_tuple(use_awaitable));
    if (pull_failed) co_return;
    auto [failed, gradient] =
        co_await worker.async_compute(std::move(weights), mb, as_tuple(use_awaitable));
    if (failed) co_return;  // the bug: mb is dropped, and the others wait for it
    co_await server.async_send(boost::system::error_code{}, use_awaitable);
    co_await worker.async_push(std::move(gradient), use_awaitable);
    server.try_receive([](boost::system::error_code) {});
  }
}

awaitable<void> train(ps::Cluster& cluster) {
  auto ex = co_await asio::this_coro::executor;
  Lock server(ex, 1);
  int next = 0;
  using Run = decltype(asio::co_spawn(ex, awaitable<void>{}, asio::deferred));
  std::vector<Run> runs;
  for (int w = 0; w < cluster.num_workers(); ++w) {
    runs.push_back(asio::co_spawn(ex, worker_loop(cluster, server, next, w), asio::deferred));
  }
  co_await asio::experimental::make_parallel_group(std::move(runs))
      .async_wait(asio::experimental::wait_for_all(), use_awaitable);
}

OVERLAP_TRAIN(train)
