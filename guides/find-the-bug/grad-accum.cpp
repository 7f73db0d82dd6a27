// Find the bug: accumulation, validation alongside training and early stopping, all in check
// order and cancelled at the decision. It builds and looks right, but the grader rejects it. Why?
#include <boost/asio.hpp>
#include <boost/asio/experimental/awaitable_operators.hpp>
#include <boost/asio/experimental/channel.hpp>
#include <boost/asio/experimental/parallel_group.hpp>
#include <optional>
#include <overlap/grad_accum.hpp>
#include <vector>

namespace asio = boost::asio;
namespace ga = overlap::grad_accum;
using namespace asio::experimental::awaitable_operators;
using asio::awaitable;
using asio::use_awaitable;
using boost::system::error_code;
template <typename... A>
using Channel = asio::experimental::channel<void(error_code, A...)>;
using Task = decltype(asio::co_spawn(asio::any_io_executor{}, awaitable<void>{}, asio::deferred));

// Runs the tasks at once; the first failure cancels the rest and is rethrown.
awaitable<void> all_of(std::vector<Task> tasks) {
  auto [order, errors] = co_await asio::experimental::make_parallel_group(std::move(tasks))
                             .async_wait(asio::experimental::wait_for_one_error(), use_awaitable);
  for (std::size_t i : order)
    if (errors[i]) std::rethrow_exception(errors[i]);
}

awaitable<void> train(ga::Trainer& t) {
  auto executor = co_await asio::this_coro::executor;
  const int every = t.validate_every(), checks = t.max_steps() / every;
  Channel<> slots(executor, t.snapshot_slots());  // one message per snapshot held
  Channel<ga::Snapshot> queue(executor, checks);
  Channel<ga::Checkpoint> results(executor, checks);
  const int n = t.micro_batches_per_step();
  auto training = [&]() -> awaitable<void> {
    for (int step = 0; step < t.max_steps(); ++step) {
      std::vector<std::vector<int>> mine(t.num_workers());  // each to the first to finish it
      auto finish = [&](int w) { return (mine[w].size() + 1) * t.worker(w).ms_per_gradient(); };
      for (int i = 0; i < n; ++i) {
        int pick = 0;
        for (int w = 1; w < t.num_workers(); ++w)
          if (finish(w) < finish(pick)) pick = w;
        mine[pick].push_back(step * n + i);
      }
      const ga::Weights weights = t.weights();
      std::vector<ga::Gradient> gradients(n);
      auto work = [&](int w) -> awaitable<void> {
        for (int mb : mine[w])
          gradients[mb - step * n] = co_await t.worker(w).async_compute(weights, mb, use_awaitable);
      };
      std::vector<Task> workers;
      for (int w = 0; w < t.num_workers(); ++w)
        workers.push_back(asio::co_spawn(executor, work(w), asio::deferred));
      co_await all_of(std::move(workers));
      co_await t.async_apply(std::move(gradients), use_awaitable);
      if (t.step() % every != 0) continue;
      co_await slots.async_send(error_code{}, use_awaitable);  // wait for a free slot
      co_await queue.async_send(error_code{}, t.snapshot(), use_awaitable);
    }
  };
  auto validator = [&](int v) -> awaitable<void> {
    for (;;) {
      ga::Snapshot snapshot = co_await queue.async_receive(use_awaitable);
      slots.try_receive([](error_code) {});  // taken off the queue: room for the next one
      ga::Checkpoint checkpoint =
          co_await t.validator(v).async_validate(std::move(snapshot), use_awaitable);
      co_await results.async_send(error_code{}, checkpoint, use_awaitable);
    }
  };
  auto deciding = [&]() -> awaitable<void> {  // the rule over checks 1, 2, 3, ... in that order
    std::vector<std::optional<ga::Checkpoint>> in(checks + 1);
    ga::Checkpoint best;
    int next = 1, without_improvement = 0;
    for (;;) {
      ga::Checkpoint checkpoint = co_await results.async_receive(use_awaitable);
      in[checkpoint.step() / every] = checkpoint;
      for (; next <= checks && in[next]; ++next) {
        const bool better = best.step() < 0 || in[next]->loss() < best.loss() - t.min_delta();
        if (better) best = *in[next];
        without_improvement = better ? 0 : without_improvement + 1;
        if (without_improvement == t.patience() || next == checks) {
          t.stop(best);
          co_return;
        }
      }
    }
  };
  std::vector<Task> validators;
  for (int v = 0; v < t.num_validators(); ++v)
    validators.push_back(asio::co_spawn(executor, validator(v), asio::deferred));
  co_await ((training() && all_of(std::move(validators))) || deciding());
}

OVERLAP_TRAIN(train)
