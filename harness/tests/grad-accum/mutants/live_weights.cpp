// Mutant: training only signals that a check is due; the single validator takes its snapshot
// when it gets round to it, of whatever the weights are by then (the live weights: wrong
// snapshot from the second check on).
#include <boost/asio.hpp>
#include <boost/asio/experimental/awaitable_operators.hpp>
#include <boost/asio/experimental/channel.hpp>
#include <boost/asio/experimental/parallel_group.hpp>
#include <overlap/grad_accum.hpp>
#include <vector>

namespace asio = boost::asio;
namespace ga = overlap::grad_accum;
using namespace asio::experimental::awaitable_operators;
using asio::use_awaitable;
using Signal = asio::experimental::channel<void(boost::system::error_code)>;

asio::awaitable<void> train(ga::Trainer& t) {
  auto ex = co_await asio::this_coro::executor;
  const int n = t.micro_batches_per_step();
  Signal due(ex, t.max_steps());
  auto training = [&]() -> asio::awaitable<void> {
    for (int step = 0; step < t.max_steps(); ++step) {
      const ga::Weights w = t.weights();
      std::vector<ga::Gradient> gradients(n);
      auto on_worker = [&](int k) -> asio::awaitable<void> {  // micro-batches k, k + W, ...
        for (int i = k; i < n; i += t.num_workers()) {
          gradients[i] = co_await t.worker(k).async_compute(w, step * n + i, use_awaitable);
        }
      };
      using Run = decltype(asio::co_spawn(ex, asio::awaitable<void>{}, asio::deferred));
      std::vector<Run> runs;
      for (int k = 0; k < t.num_workers(); ++k) {
        runs.push_back(asio::co_spawn(ex, on_worker(k), asio::deferred));
      }
      co_await asio::experimental::make_parallel_group(std::move(runs))
          .async_wait(asio::experimental::wait_for_all(), use_awaitable);
      co_await t.async_apply(std::move(gradients), use_awaitable);
      if (t.step() % t.validate_every() == 0) due.try_send(boost::system::error_code{});
    }
  };
  auto validating = [&]() -> asio::awaitable<void> {
    ga::Checkpoint best;
    for (int bad = 0, check = 1; bad < t.patience(); ++check) {
      co_await due.async_receive(use_awaitable);
      const ga::Checkpoint c = co_await t.validator(0).async_validate(t.snapshot(), use_awaitable);
      if (best.step() < 0 || c.loss() < best.loss() - t.min_delta()) {
        best = c, bad = 0;
      } else {
        ++bad;
      }
    }
    t.stop(best);
  };
  co_await (training() || validating());
}

OVERLAP_TRAIN(train)
