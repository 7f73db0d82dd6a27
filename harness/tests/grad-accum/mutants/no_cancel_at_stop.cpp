// Mutant: stops at the right moment and starts nothing after it, but lets the gradients and
// validations already running finish instead of cancelling them, then returns: the brief asks
// for everything running at stop() to be cancelled then.
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
using Done = asio::experimental::channel<void(boost::system::error_code)>;

struct Shared {
  Shared(ga::Trainer& t, asio::any_io_executor ex) : t(t), results(ex, 64), done(ex, 64) {}
  ga::Trainer& t;
  Results results;
  Done done;  // one message per coroutine that has finished
  bool stopped = false;
  int running = 1;  // the training loop, and each validation
};

awaitable<void> validate(std::shared_ptr<Shared> s, ga::Snapshot snapshot, int check) {
  ga::Validator& v = s->t.validator((check - 1) % s->t.num_validators());
  ga::Checkpoint c = co_await v.async_validate(std::move(snapshot), use_awaitable);
  if (!s->stopped) co_await s->results.async_send({}, c, use_awaitable);
  co_await s->done.async_send({}, use_awaitable);
}

awaitable<void> training(std::shared_ptr<Shared> s) {
  ga::Trainer& t = s->t;
  const int n = t.micro_batches_per_step();
  for (int step = 0; step < t.max_steps() && !s->stopped; ++step) {
    const ga::Weights weights = t.weights();
    std::vector<ga::Gradient> gradients;
    for (int i = 0; i < n; ++i) {
      ga::Worker& w = t.worker(i % t.num_workers());
      gradients.push_back(co_await w.async_compute(weights, step * n + i, use_awaitable));
    }
    if (s->stopped) break;
    co_await t.async_apply(std::move(gradients), use_awaitable);
    if (t.step() % t.validate_every() == 0) {
      ++s->running;
      asio::co_spawn(co_await asio::this_coro::executor,
                     validate(s, t.snapshot(), t.step() / t.validate_every()), asio::detached);
    }
  }
  co_await s->done.async_send({}, use_awaitable);
}

awaitable<void> train(ga::Trainer& t) {
  auto executor = co_await asio::this_coro::executor;
  auto s = std::make_shared<Shared>(t, executor);
  asio::co_spawn(executor, training(s), asio::detached);
  ga::Checkpoint best;
  for (int bad = 0;;) {
    const ga::Checkpoint c = co_await s->results.async_receive(use_awaitable);
    if (best.step() < 0 || c.loss() < best.loss() - t.min_delta()) {
      best = c, bad = 0;
    } else if (++bad == t.patience() || c.step() == t.max_steps()) {
      break;
    }
  }
  t.stop(best);
  s->stopped = true;  // the bug: what runs now is waited for, not cancelled
  while (s->running-- > 0) co_await s->done.async_receive(use_awaitable);
}

OVERLAP_TRAIN(train)
