// Design: validation overlapped with training, each check to the idle validator of the lowest
// index, or, when none is idle, to the first that becomes free. Correct everywhere and as fast as
// the reference while the validators keep up; with validators of different speeds it can beat
// the reference's queue (a low index that happens to be fast) or fall behind it. One of the rules
// the world's best known is taken over (worlds/grad-accum/planner.hpp: lowest_idle).
#include <boost/asio.hpp>
#include <boost/asio/experimental/awaitable_operators.hpp>
#include <boost/asio/experimental/channel.hpp>
#include <boost/asio/experimental/parallel_group.hpp>
#include <map>
#include <memory>
#include <overlap/grad_accum.hpp>
#include <set>
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

// Runs every coroutine at once; the first failure cancels the others and is rethrown.
awaitable<void> all_of(std::vector<Run> runs) {
  auto [order, errors] = co_await asio::experimental::make_parallel_group(std::move(runs))
                             .async_wait(asio::experimental::wait_for_one_error(), use_awaitable);
  // The first to fail, in completion order: the others failed because it cancelled them.
  for (std::size_t i : order) {
    if (errors[i]) std::rethrow_exception(errors[i]);
  }
}

// Step `step`'s N gradients, each micro-batch on the worker that would finish it first.
awaitable<std::vector<ga::Gradient>> gradients_of(ga::Trainer& t, int step) {
  const int n = t.micro_batches_per_step();
  std::vector<std::vector<int>> plan(t.num_workers());
  for (int i = 0; i < n; ++i) {
    int pick = 0;
    for (int w = 1; w < t.num_workers(); ++w) {
      const double finish = (plan[w].size() + 1) * t.worker(w).ms_per_gradient();
      if (finish < (plan[pick].size() + 1) * t.worker(pick).ms_per_gradient()) pick = w;
    }
    plan[pick].push_back(step * n + i);
  }
  const ga::Weights weights = t.weights();
  std::vector<ga::Gradient> gradients(n);
  auto compute = [&](int w) -> awaitable<void> {
    for (int mb : plan[w]) {
      gradients[mb - step * n] = co_await t.worker(w).async_compute(weights, mb, use_awaitable);
    }
  };
  auto executor = co_await asio::this_coro::executor;
  std::vector<Run> runs;
  for (int w = 0; w < t.num_workers(); ++w) {
    if (!plan[w].empty()) runs.push_back(asio::co_spawn(executor, compute(w), asio::deferred));
  }
  co_await all_of(std::move(runs));
  co_return gradients;
}

awaitable<void> train(ga::Trainer& t) {
  auto executor = co_await asio::this_coro::executor;
  const int every = t.validate_every();
  const int checks = t.max_steps() / every;
  Channel<> slots(executor, t.snapshot_slots());  // one message per slot in use
  Channel<ga::Snapshot> queue(executor, checks);  // snapshots waiting for their validator
  // Unbuffered: a hand-over completes when its validator takes the snapshot.
  std::vector<std::unique_ptr<Channel<ga::Snapshot>>> handover;
  for (int v = 0; v < t.num_validators(); ++v) {
    handover.push_back(std::make_unique<Channel<ga::Snapshot>>(executor, 0));
  }
  Channel<ga::Checkpoint> results(executor, checks);

  // The check's snapshot, once a slot is free. The weights stay those of the check's step until
  // it is taken: the next optimizer step waits for it.
  auto take_snapshot = [&]() -> awaitable<void> {
    co_await slots.async_send(error_code{}, use_awaitable);  // a free slot, or wait
    co_await queue.async_send(error_code{}, t.snapshot(), use_awaitable);
  };

  auto training = [&]() -> awaitable<void> {
    std::vector<ga::Gradient> gradients = co_await gradients_of(t, 0);
    for (int step = 0; step < t.max_steps(); ++step) {
      co_await t.async_apply(std::move(gradients), use_awaitable);
      const bool check = t.step() % every == 0;
      if (step + 1 == t.max_steps()) {
        if (check) co_await take_snapshot();
      } else if (check) {
        // The next step's gradients need only these weights: computed while the snapshot waits.
        gradients = co_await (gradients_of(t, step + 1) && take_snapshot());
      } else {
        gradients = co_await gradients_of(t, step + 1);
      }
    }
  };

  Channel<int> freed(executor, t.num_validators());  // a validator's index as it becomes free
  auto validating = [&](int v) -> awaitable<void> {
    for (;;) {
      ga::Snapshot snapshot = co_await handover[v]->async_receive(use_awaitable);
      ga::Checkpoint checkpoint =
          co_await t.validator(v).async_validate(std::move(snapshot), use_awaitable);
      slots.try_receive([](error_code) {});  // its slot is free again
      freed.try_send(error_code{}, v);
      co_await results.async_send(error_code{}, checkpoint, use_awaitable);
    }
  };

  // Each check, in check order, to the idle validator of the lowest index; if none is idle, to
  // the first that becomes free.
  auto dispatching = [&]() -> awaitable<void> {
    std::set<int> idle;
    for (int v = 0; v < t.num_validators(); ++v) idle.insert(v);
    for (;;) {
      ga::Snapshot snapshot = co_await queue.async_receive(use_awaitable);
      while (freed.try_receive([&](error_code, int v) { idle.insert(v); })) {
      }
      if (idle.empty()) idle.insert(co_await freed.async_receive(use_awaitable));
      const int v = *idle.begin();
      idle.erase(idle.begin());
      co_await handover[v]->async_send(error_code{}, std::move(snapshot), use_awaitable);
    }
  };

  auto validators = [&]() -> awaitable<void> {
    std::vector<Run> runs;
    runs.push_back(asio::co_spawn(executor, dispatching(), asio::deferred));
    for (int v = 0; v < t.num_validators(); ++v) {
      runs.push_back(asio::co_spawn(executor, validating(v), asio::deferred));
    }
    co_await all_of(std::move(runs));
  };

  // Early stopping over the checks in order, whatever order their results come in.
  auto deciding = [&]() -> awaitable<void> {
    std::map<int, ga::Checkpoint> arrived;  // by check number
    ga::Checkpoint best;
    int without_improvement = 0;
    for (int next = 1;;) {
      ga::Checkpoint checkpoint = co_await results.async_receive(use_awaitable);
      arrived.emplace(checkpoint.step() / every, checkpoint);
      for (auto it = arrived.find(next); it != arrived.end(); it = arrived.find(++next)) {
        const ga::Checkpoint& check = it->second;
        if (best.step() < 0 || check.loss() < best.loss() - t.min_delta()) {
          best = check;
          without_improvement = 0;
        } else {
          ++without_improvement;
        }
        if (without_improvement == t.patience() || next == checks) {
          t.stop(best);
          co_return;
        }
      }
    }
  };

  co_await ((training() && validators()) || deciding());
}

OVERLAP_TRAIN(train)
