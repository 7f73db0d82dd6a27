// Mutant: synchronous SGD that does not wait for the slowest worker: each round averages the
// first num_workers() gradients to arrive, whoever computed them, so the fast worker sends two
// in one round (misuse: one gradient per worker; the rejected call throws).
#include <boost/asio.hpp>
#include <boost/asio/experimental/channel.hpp>
#include <boost/asio/experimental/parallel_group.hpp>
#include <overlap/param_server.hpp>
#include <vector>

namespace asio = boost::asio;
namespace ps = overlap::param_server;
using asio::awaitable;
using asio::use_awaitable;
using boost::system::error_code;
using Results = asio::experimental::channel<void(error_code, ps::Gradient)>;
using Run = decltype(asio::co_spawn(asio::any_io_executor{}, awaitable<void>{}, asio::deferred));

awaitable<void> train(ps::Cluster& cluster) {
  auto ex = co_await asio::this_coro::executor;
  const int total = cluster.mini_batches();
  const int workers = cluster.num_workers();
  Results done(ex, total);
  int next = 0;

  auto working = [&](int w) -> awaitable<void> {
    ps::Worker& worker = cluster.worker(w);
    while (next < total) {
      const int mb = next++;
      ps::Weights weights = co_await worker.async_pull(use_awaitable);
      ps::Gradient g = co_await worker.async_compute(std::move(weights), mb, use_awaitable);
      co_await done.async_send(error_code{}, std::move(g), use_awaitable);
    }
  };

  auto averaging = [&]() -> awaitable<void> {
    for (int applied = 0; applied < total;) {
      std::vector<ps::Gradient> round;  // the bug: the first to arrive, not one per worker
      while (static_cast<int>(round.size()) < workers &&
             applied + static_cast<int>(round.size()) < total) {
        round.push_back(co_await done.async_receive(use_awaitable));
      }
      applied += static_cast<int>(round.size());
      co_await cluster.server().async_apply_average(std::move(round), use_awaitable);
    }
  };

  std::vector<Run> runs;
  for (int w = 0; w < workers; ++w) runs.push_back(asio::co_spawn(ex, working(w), asio::deferred));
  runs.push_back(asio::co_spawn(ex, averaging(), asio::deferred));
  auto [order, errors] = co_await asio::experimental::make_parallel_group(std::move(runs))
                             .async_wait(asio::experimental::wait_for_one_error(), use_awaitable);
  for (std::size_t i : order) {  // the first failure, not the cancellations it caused
    if (errors[i]) std::rethrow_exception(errors[i]);
  }
}

OVERLAP_TRAIN(train)
