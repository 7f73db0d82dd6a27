// Mutant: validation alongside training; the decider only posts its decision, and training
// looks for it between steps and calls stop() there, after the deciding check's result came in
// (late decision, by up to a step).
#include <boost/asio.hpp>
#include <boost/asio/experimental/awaitable_operators.hpp>
#include <boost/asio/experimental/channel.hpp>
#include <boost/asio/experimental/parallel_group.hpp>
#include <map>
#include <overlap/grad_accum.hpp>
#include <vector>

namespace asio = boost::asio;
namespace ga = overlap::grad_accum;
using namespace asio::experimental::awaitable_operators;
using asio::awaitable;
using asio::use_awaitable;
using boost::system::error_code;
template <typename... Args>
using Channel = asio::experimental::channel<void(error_code, Args...)>;
using Run = decltype(asio::co_spawn(asio::any_io_executor{}, awaitable<void>{}, asio::deferred));

awaitable<void> all_of(std::vector<Run> runs) {
  co_await asio::experimental::make_parallel_group(std::move(runs))
      .async_wait(asio::experimental::wait_for_all(), use_awaitable);
}

// Step `step`'s gradients on the current weights, micro-batch i on worker i % W.
awaitable<std::vector<ga::Gradient>> gradients_of(ga::Trainer& t, int step) {
  auto ex = co_await asio::this_coro::executor;
  const int n = t.micro_batches_per_step();
  const ga::Weights weights = t.weights();
  std::vector<ga::Gradient> out(n);
  auto on_worker = [&](int k) -> awaitable<void> {
    for (int i = k; i < n; i += t.num_workers()) {
      out[i] = co_await t.worker(k).async_compute(weights, step * n + i, use_awaitable);
    }
  };
  std::vector<Run> runs;
  for (int k = 0; k < t.num_workers(); ++k) {
    runs.push_back(asio::co_spawn(ex, on_worker(k), asio::deferred));
  }
  co_await all_of(std::move(runs));
  co_return out;
}

awaitable<void> train(ga::Trainer& t) {
  auto ex = co_await asio::this_coro::executor;
  const int every = t.validate_every();
  const int checks = t.max_steps() / every;
  Channel<> slots(ex, t.snapshot_slots());
  Channel<ga::Snapshot> queue(ex, checks);
  Channel<ga::Checkpoint> results(ex, checks);
  Channel<ga::Checkpoint> decision(ex, 1);

  auto training = [&]() -> awaitable<void> {
    for (int step = 0; step < t.max_steps(); ++step) {
      bool decided = false;
      decision.try_receive([&](error_code, ga::Checkpoint best) {
        t.stop(best);  // the bug: only now, between steps
        decided = true;
      });
      if (decided) co_return;
      co_await t.async_apply(co_await gradients_of(t, step), use_awaitable);
      if (t.step() % every == 0) {
        co_await slots.async_send(error_code{}, use_awaitable);
        co_await queue.async_send(error_code{}, t.snapshot(), use_awaitable);
      }
    }
    t.stop(co_await decision.async_receive(use_awaitable));
  };

  auto validating = [&](int v) -> awaitable<void> {
    for (;;) {
      ga::Snapshot snapshot = co_await queue.async_receive(use_awaitable);
      ga::Checkpoint c = co_await t.validator(v).async_validate(std::move(snapshot), use_awaitable);
      slots.try_receive([](error_code) {});
      co_await results.async_send(error_code{}, c, use_awaitable);
    }
  };

  auto validators = [&]() -> awaitable<void> {
    std::vector<Run> runs;
    for (int v = 0; v < t.num_validators(); ++v) {
      runs.push_back(asio::co_spawn(ex, validating(v), asio::deferred));
    }
    co_await all_of(std::move(runs));
  };

  // Early stopping over the checks in order, whatever order their results come in.
  auto deciding = [&]() -> awaitable<void> {
    std::map<int, ga::Checkpoint> arrived;
    ga::Checkpoint best;
    int bad = 0;
    for (int next = 1;;) {
      ga::Checkpoint c = co_await results.async_receive(use_awaitable);
      arrived.emplace(c.step() / every, c);
      for (auto it = arrived.find(next); it != arrived.end(); it = arrived.find(++next)) {
        if (best.step() < 0 || it->second.loss() < best.loss() - t.min_delta()) {
          best = it->second, bad = 0;
        } else {
          ++bad;
        }
        if (bad == t.patience() || next == checks) {
          co_await decision.async_send(error_code{}, best, use_awaitable);
          co_return;
        }
      }
    }
  };

  co_await (training() || (validators() && deciding()));
}

OVERLAP_TRAIN(train)
