// Mutant: training and validation run as detached coroutines and train returns as soon as it
// calls stop(). Nothing cancels them: the training loop applies more steps after the stop and
// validations run on after train returned, unseen if the simulation ended at the return.
#include <boost/asio.hpp>
#include <boost/asio/experimental/channel.hpp>
#include <memory>
#include <overlap/grad_accum.hpp>
#include <vector>

namespace asio = boost::asio;
namespace ga = overlap::grad_accum;
using asio::awaitable;
using asio::use_awaitable;
using Results = asio::experimental::channel<void(boost::system::error_code, ga::Checkpoint)>;

struct Shared {
  ga::Trainer& t;
  Results results;
};

awaitable<void> validate(std::shared_ptr<Shared> s, ga::Snapshot snapshot, int check) {
  ga::Validator& v = s->t.validator((check - 1) % s->t.num_validators());
  ga::Checkpoint c = co_await v.async_validate(std::move(snapshot), use_awaitable);
  co_await s->results.async_send({}, c, use_awaitable);
}

awaitable<void> training(std::shared_ptr<Shared> s) {
  ga::Trainer& t = s->t;
  const int n = t.micro_batches_per_step();
  for (int step = 0; step < t.max_steps(); ++step) {
    const ga::Weights weights = t.weights();
    std::vector<ga::Gradient> gradients;
    for (int i = 0; i < n; ++i) {
      ga::Worker& w = t.worker(i % t.num_workers());
      gradients.push_back(co_await w.async_compute(weights, step * n + i, use_awaitable));
    }
    co_await t.async_apply(std::move(gradients), use_awaitable);
    if (t.step() % t.validate_every() == 0) {
      asio::co_spawn(co_await asio::this_coro::executor,
                     validate(s, t.snapshot(), t.step() / t.validate_every()), asio::detached);
    }
  }
}

awaitable<void> train(ga::Trainer& t) {
  auto s = std::make_shared<Shared>(Shared{t, Results(co_await asio::this_coro::executor, 64)});
  asio::co_spawn(co_await asio::this_coro::executor, training(s), asio::detached);
  ga::Checkpoint best;
  for (int bad = 0;;) {  // results come in check order: one validation at a time here
    const ga::Checkpoint c = co_await s->results.async_receive(use_awaitable);
    if (best.step() < 0 || c.loss() < best.loss() - t.min_delta()) {
      best = c, bad = 0;
    } else if (++bad == t.patience() || c.step() == t.max_steps()) {
      break;
    }
  }
  t.stop(best);  // the bug: nothing is cancelled, and train returns at once
}

OVERLAP_TRAIN(train)
