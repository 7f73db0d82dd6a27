// What the grad-accum brief's Asio notes promise of a cancelled operation, checked as the program
// runs (a broken promise throws, and the run fails saying which): it completes with
// operation_aborted at the instant of the cancellation, once nothing else is ready, so after a
// chain of handlers posted after the cancellation; and the cancellation costs no time.
// The schedule is the starter's, with one compute on worker 1 started and cancelled at once, at
// the start: the makespans are the starter's.
#include <boost/asio.hpp>
#include <boost/asio/experimental/channel.hpp>
#include <functional>
#include <overlap/grad_accum.hpp>
#include <stdexcept>
#include <string>
#include <vector>

namespace asio = boost::asio;
namespace ga = overlap::grad_accum;
using boost::system::error_code;

void require(bool kept, const std::string& promise) {
  if (!kept) throw std::logic_error("broken promise: " + promise);
}

// Runs `then` at the end of a chain of handlers, each posted by the one before: once nothing else
// that was ready, or became ready meanwhile, is left to run.
void after_chain(const asio::any_io_executor& executor, int links, std::function<void()> then) {
  if (links == 0) return then();
  asio::post(executor, [executor, links, then = std::move(then)]() mutable {
    after_chain(executor, links - 1, std::move(then));
  });
}

// A compute on worker 1, cancelled as it starts.
asio::awaitable<void> cancel_a_compute(ga::Trainer& trainer) {
  auto executor = co_await asio::this_coro::executor;
  asio::cancellation_signal cancel;
  asio::experimental::channel<void(error_code)> ended(executor, 1);
  bool posted = false;
  trainer.worker(1).async_compute(
      trainer.weights(), 0,
      asio::bind_cancellation_slot(cancel.slot(), [&](error_code ec, ga::Gradient) {
        require(ec == asio::error::operation_aborted,
                "a cancelled compute ended with " + ec.message());
        require(posted,
                "a cancelled operation completed before the handlers posted after the cancel ran");
        ended.try_send(error_code{});
      }));
  cancel.emit(asio::cancellation_type::all);
  after_chain(executor, 3, [&] { posted = true; });
  co_await ended.async_receive(asio::use_awaitable);
}

asio::awaitable<void> train(ga::Trainer& trainer) {
  co_await cancel_a_compute(trainer);
  const int n = trainer.micro_batches_per_step();
  ga::Checkpoint best;
  int checks_without_improvement = 0;
  for (int step = 0; step < trainer.max_steps(); ++step) {
    const ga::Weights weights = trainer.weights();
    std::vector<ga::Gradient> gradients;
    for (int i = 0; i < n; ++i) {
      gradients.push_back(
          co_await trainer.worker(0).async_compute(weights, step * n + i, asio::use_awaitable));
    }
    co_await trainer.async_apply(std::move(gradients), asio::use_awaitable);

    if (trainer.step() % trainer.validate_every() != 0) continue;
    const ga::Checkpoint check =
        co_await trainer.validator(0).async_validate(trainer.snapshot(), asio::use_awaitable);
    if (best.step() < 0 || check.loss() < best.loss() - trainer.min_delta()) {
      best = check;
      checks_without_improvement = 0;
    } else if (++checks_without_improvement == trainer.patience()) {
      break;
    }
  }
  trainer.stop(best);
}

OVERLAP_TRAIN(train)
