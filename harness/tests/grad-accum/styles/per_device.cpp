// Style: one coroutine per device, talking through channels. Each worker serves jobs from its
// own channel; the optimizer hands out a step's jobs, collects the gradients, applies them and
// queues a snapshot every K steps; validators share the snapshot queue; the decider reads the
// results in check order and calls stop(). `||` then cancels every device still busy.
#include <boost/asio.hpp>
#include <boost/asio/experimental/awaitable_operators.hpp>
#include <boost/asio/experimental/channel.hpp>
#include <boost/asio/experimental/parallel_group.hpp>
#include <map>
#include <memory>
#include <overlap/grad_accum.hpp>
#include <vector>

namespace asio = boost::asio;
namespace ga = overlap::grad_accum;
using namespace asio::experimental::awaitable_operators;
using asio::awaitable;
using asio::use_awaitable;
using boost::system::error_code;

template <typename... T>
using Channel = asio::experimental::channel<void(error_code, T...)>;

struct Job {
  ga::Weights weights;
  int mb;
};

// Runs coroutines side by side until all end; the first failure cancels the rest.
awaitable<void> together(std::vector<awaitable<void>> loops) {
  auto ex = co_await asio::this_coro::executor;
  using Run = decltype(asio::co_spawn(ex, awaitable<void>{}, asio::deferred));
  std::vector<Run> runs;
  for (auto& loop : loops) runs.push_back(asio::co_spawn(ex, std::move(loop), asio::deferred));
  auto [order, errors] = co_await asio::experimental::make_parallel_group(std::move(runs))
                             .async_wait(asio::experimental::wait_for_one_error(), use_awaitable);
  if (!order.empty() && errors[order[0]]) std::rethrow_exception(errors[order[0]]);
}

awaitable<void> train(ga::Trainer& t) {
  auto ex = co_await asio::this_coro::executor;
  const int n = t.micro_batches_per_step(), every = t.validate_every(), workers = t.num_workers();
  std::vector<std::unique_ptr<Channel<Job>>> jobs;
  for (int w = 0; w < workers; ++w) jobs.push_back(std::make_unique<Channel<Job>>(ex, n));
  Channel<ga::Gradient> gradients(ex, n);
  Channel<> slots(ex, t.snapshot_slots());  // a message per slot in use
  Channel<ga::Snapshot> snapshots(ex, t.max_steps() / every);
  Channel<ga::Checkpoint> results(ex, t.max_steps() / every);
  bool stopped = false;

  auto worker = [&](int w) -> awaitable<void> {
    for (;;) {
      Job job = co_await jobs[w]->async_receive(use_awaitable);
      co_await gradients.async_send(
          {}, co_await t.worker(w).async_compute(std::move(job.weights), job.mb, use_awaitable),
          use_awaitable);
    }
  };

  auto optimizer = [&]() -> awaitable<void> {
    for (int step = 0; step < t.max_steps(); ++step) {
      const ga::Weights weights = t.weights();
      std::vector<double> until(workers);  // each micro-batch to the earliest finisher
      auto finish = [&](int w) { return until[w] + t.worker(w).ms_per_gradient(); };
      for (int mb = step * n; mb < (step + 1) * n; ++mb) {
        int w = 0;
        for (int v = 1; v < workers; ++v) w = finish(v) < finish(w) ? v : w;
        until[w] = finish(w);
        co_await jobs[w]->async_send({}, Job{weights, mb}, use_awaitable);
      }
      std::vector<ga::Gradient> step_gradients(n);
      for (int i = 0; i < n; ++i) {
        ga::Gradient g = co_await gradients.async_receive(use_awaitable);
        step_gradients[g.micro_batch() - step * n] = std::move(g);
      }
      if (stopped) co_return;
      co_await t.async_apply(std::move(step_gradients), use_awaitable);
      if (t.step() % every == 0) {
        co_await slots.async_send({}, use_awaitable);  // a free slot, or wait for one
        co_await snapshots.async_send({}, t.snapshot(), use_awaitable);
      }
    }
  };

  auto validator = [&](int v) -> awaitable<void> {
    for (;;) {
      ga::Snapshot snapshot = co_await snapshots.async_receive(use_awaitable);
      ga::Checkpoint c = co_await t.validator(v).async_validate(std::move(snapshot), use_awaitable);
      slots.try_receive([](error_code) {});
      co_await results.async_send({}, c, use_awaitable);
    }
  };

  auto decider = [&]() -> awaitable<void> {
    std::map<int, ga::Checkpoint> in;  // by check number
    ga::Checkpoint best;
    for (int check = 1, without_improvement = 0;;) {
      ga::Checkpoint c = co_await results.async_receive(use_awaitable);
      in.emplace(c.step() / every, c);
      for (; in.count(check); ++check) {
        const bool improved = best.step() < 0 || in[check].loss() < best.loss() - t.min_delta();
        without_improvement = improved ? 0 : without_improvement + 1;
        if (improved) best = in[check];
        if (without_improvement == t.patience() || check == t.max_steps() / every) {
          t.stop(best);
          stopped = true;
          co_return;
        }
      }
    }
  };

  std::vector<awaitable<void>> devices;
  devices.push_back(optimizer());
  for (int w = 0; w < workers; ++w) devices.push_back(worker(w));
  for (int v = 0; v < t.num_validators(); ++v) devices.push_back(validator(v));
  co_await (together(std::move(devices)) || decider());
}

OVERLAP_TRAIN(train)
