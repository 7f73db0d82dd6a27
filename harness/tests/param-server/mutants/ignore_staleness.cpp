// Mutant: every worker pushes every gradient, however stale (staleness over the bound).
#include <boost/asio.hpp>
#include <boost/asio/experimental/channel.hpp>
#include <boost/asio/experimental/parallel_group.hpp>
#include <overlap/param_server.hpp>
#include <vector>

namespace asio = boost::asio;
namespace ps = overlap::param_server;
using asio::awaitable;
using asio::use_awaitable;
using Lock = asio::experimental::channel<void(boost::system::error_code)>;

awaitable<void> worker_loop(ps::Cluster& cluster, Lock& server, int& next, int w) {
  ps::Worker& worker = cluster.worker(w);
  while (next < cluster.mini_batches()) {
    const int mb = next++;
    ps::Weights weights = co_await worker.async_pull(use_awaitable);
    ps::Gradient gradient = co_await worker.async_compute(std::move(weights), mb, use_awaitable);
    co_await server.async_send(boost::system::error_code{}, use_awaitable);
    co_await worker.async_push(std::move(gradient), use_awaitable);  // the bug: no check
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
