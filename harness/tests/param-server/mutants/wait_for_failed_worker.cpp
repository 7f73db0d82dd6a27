// Mutant: a failed worker waits for a restart message before carrying on, and nothing ever
// sends one. When the other workers finish, everything waits (deadlock, named by the grader).
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
using Signal = asio::experimental::channel<void(boost::system::error_code)>;

awaitable<void> worker_loop(ps::Cluster& cluster, Signal& server, Signal& restarted, int& next,
                            int w) {
  ps::Worker& worker = cluster.worker(w);
  while (next < cluster.mini_batches()) {
    const int mb = next++;
    for (;;) {
      auto [pull_failed, weights] = co_await worker.async_pull(as_tuple(use_awaitable));
      auto [failed, gradient] =
          co_await worker.async_compute(std::move(weights), mb, as_tuple(use_awaitable));
      if (pull_failed || failed) {
        co_await restarted.async_receive(use_awaitable);  // the bug: it never comes back
        continue;
      }
      co_await server.async_send(boost::system::error_code{}, use_awaitable);
      co_await worker.async_push(std::move(gradient), use_awaitable);
      server.try_receive([](boost::system::error_code) {});
      break;
    }
  }
}

awaitable<void> train(ps::Cluster& cluster) {
  auto ex = co_await asio::this_coro::executor;
  Signal server(ex, 1), restarted(ex, 0);
  int next = 0;
  using Run = decltype(asio::co_spawn(ex, awaitable<void>{}, asio::deferred));
  std::vector<Run> runs;
  for (int w = 0; w < cluster.num_workers(); ++w) {
    runs.push_back(
        asio::co_spawn(ex, worker_loop(cluster, server, restarted, next, w), asio::deferred));
  }
  co_await asio::experimental::make_parallel_group(std::move(runs))
      .async_wait(asio::experimental::wait_for_all(), use_awaitable);
}

OVERLAP_TRAIN(train)
