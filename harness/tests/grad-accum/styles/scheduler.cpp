// Style: one scheduler coroutine decides everything. It runs at most one training operation (a
// step's gradients, as a ranged parallel group over the workers, or an optimizer step) and one
// validation per validator, each spawned with a cancellation slot and reporting to one channel;
// on each report it decides early stopping and starts what can start now. The end cancels.
#include <boost/asio.hpp>
#include <boost/asio/experimental/channel.hpp>
#include <boost/asio/experimental/parallel_group.hpp>
#include <deque>
#include <map>
#include <optional>
#include <overlap/grad_accum.hpp>
#include <vector>

namespace asio = boost::asio;
namespace ga = overlap::grad_accum;
using asio::awaitable;
using asio::use_awaitable;
using boost::system::error_code;

struct Event {
  std::optional<std::vector<ga::Gradient>> gradients = {};  // a step's, all computed
  std::optional<ga::Checkpoint> check = {};                 // a validation's
  int validator = -1;                                       // none of these: an optimizer step
};
using Reports = asio::experimental::channel<void(error_code, std::exception_ptr, Event)>;

// share[w]: how many of a step's micro-batches worker w computes.
awaitable<Event> step_gradients(ga::Trainer& t, const std::vector<int>& share) {
  const int n = t.micro_batches_per_step(), first = t.step() * n;
  const ga::Weights weights = t.weights();
  std::vector<ga::Gradient> gradients(n);
  int next = 0;
  auto chain = [&](int w) -> awaitable<void> {
    for (int k = 0; k < share[w]; ++k) {
      const int i = next++;
      gradients[i] = co_await t.worker(w).async_compute(weights, first + i, use_awaitable);
    }
  };
  auto ex = co_await asio::this_coro::executor;
  std::vector<decltype(asio::co_spawn(ex, chain(0), asio::deferred))> chains;
  for (int w = 0; w < t.num_workers(); ++w)
    chains.push_back(asio::co_spawn(ex, chain(w), asio::deferred));
  auto [order, errors] = co_await asio::experimental::make_parallel_group(std::move(chains))
                             .async_wait(asio::experimental::wait_for_one_error(), use_awaitable);
  if (errors[order[0]]) std::rethrow_exception(errors[order[0]]);
  co_return Event{std::move(gradients)};
}

awaitable<Event> optimizer_step(ga::Trainer& t, std::vector<ga::Gradient> gradients) {
  co_await t.async_apply(std::move(gradients), use_awaitable);
  co_return Event{};
}

awaitable<Event> validation(ga::Validator& v, ga::Snapshot snapshot) {
  co_return Event{{}, co_await v.async_validate(std::move(snapshot), use_awaitable), v.index()};
}

awaitable<void> train(ga::Trainer& t) {
  auto ex = co_await asio::this_coro::executor;
  const int validators = t.num_validators(), every = t.validate_every();
  std::vector<int> share(t.num_workers());  // each micro-batch to the worker done with it first
  auto finish = [&](int w) { return (share[w] + 1) * t.worker(w).ms_per_gradient(); };
  for (int i = 0; i < t.micro_batches_per_step(); ++i) {
    int w = 0;
    for (int v = 1; v < t.num_workers(); ++v) w = finish(v) < finish(w) ? v : w;
    ++share[w];
  }
  Reports reports(ex, validators + 1);
  std::vector<asio::cancellation_signal> cancel(validators + 1);  // validators, then training
  int running = 0;
  auto start = [&](int device, awaitable<Event> op) {
    auto report = [&](std::exception_ptr e, Event ev) {
      reports.try_send(error_code{}, e, std::move(ev));
    };
    asio::co_spawn(ex, std::move(op), asio::bind_cancellation_slot(cancel[device].slot(), report));
    ++running;
  };

  std::optional<std::vector<ga::Gradient>> ready;  // the next step's gradients, not applied yet
  std::deque<ga::Snapshot> queue;
  std::vector<bool> validating(validators);
  std::map<int, ga::Checkpoint> results;  // by check number
  ga::Checkpoint best;
  int slots_used = 0, next_check = 1, without_improvement = 0;
  bool snapshot_due = false, stopped = false;
  start(validators, step_gradients(t, share));
  while (running > 0) {
    auto [error, ev] = co_await reports.async_receive(use_awaitable);
    --running;
    if (stopped) continue;  // a cancelled operation coming back
    if (error) std::rethrow_exception(error);
    if (ev.gradients) {
      ready = std::move(ev.gradients);
    } else if (ev.check) {
      validating[ev.validator] = false;
      --slots_used;
      results.emplace(ev.check->step() / every, *ev.check);
      for (auto it = results.find(next_check); it != results.end() && !stopped;
           it = results.find(++next_check)) {
        const bool improved = best.step() < 0 || it->second.loss() < best.loss() - t.min_delta();
        without_improvement = improved ? 0 : without_improvement + 1;
        if (improved) best = it->second;
        stopped = without_improvement == t.patience() || next_check == t.max_steps() / every;
      }
      if (stopped) {
        t.stop(best);
        for (auto& signal : cancel) signal.emit(asio::cancellation_type::terminal);
        continue;
      }
    } else {  // an optimizer step ended: its snapshot is due, and the next step's gradients
      snapshot_due = t.step() % every == 0;
      if (t.step() < t.max_steps()) start(validators, step_gradients(t, share));
    }
    if (snapshot_due && slots_used < t.snapshot_slots()) {
      queue.push_back(t.snapshot());
      ++slots_used;
      snapshot_due = false;
    }
    for (int v = 0; v < validators && !queue.empty(); ++v) {
      if (validating[v]) continue;
      validating[v] = true;
      start(v, validation(t.validator(v), std::move(queue.front())));
      queue.pop_front();
    }
    if (ready && !snapshot_due) {  // step c*K+1 waits for check c's snapshot
      start(validators, optimizer_step(t, std::move(*ready)));
      ready.reset();
    }
  }
}

OVERLAP_TRAIN(train)
