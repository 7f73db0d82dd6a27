// Mutant: "pipelines" steps: the next step's gradients start while the optimizer step is still
// running, on the weights from before it (stale gradients).
#include <boost/asio.hpp>
#include <boost/asio/experimental/awaitable_operators.hpp>
#include <overlap/grad_accum.hpp>
#include <vector>

namespace asio = boost::asio;
namespace ga = overlap::grad_accum;
using namespace asio::experimental::awaitable_operators;
using asio::use_awaitable;

asio::awaitable<std::vector<ga::Gradient>> gradients_of(ga::Trainer& t, ga::Weights w, int step) {
  const int n = t.micro_batches_per_step();
  std::vector<ga::Gradient> out;
  for (int i = 0; i < n; ++i) {
    out.push_back(co_await t.worker(0).async_compute(w, step * n + i, use_awaitable));
  }
  co_return out;
}

asio::awaitable<void> train(ga::Trainer& t) {
  ga::Checkpoint best;
  int bad = 0;
  std::vector<ga::Gradient> next = co_await gradients_of(t, t.weights(), 0);
  for (int step = 0; step < t.max_steps(); ++step) {
    const ga::Weights before = t.weights();  // the bug: taken before this step's update
    next = co_await (t.async_apply(std::move(next), use_awaitable) &&
                     gradients_of(t, before, step + 1));
    if (t.step() % t.validate_every() != 0) continue;
    const ga::Checkpoint c = co_await t.validator(0).async_validate(t.snapshot(), use_awaitable);
    if (best.step() < 0 || c.loss() < best.loss() - t.min_delta()) {
      best = c, bad = 0;
    } else if (++bad == t.patience()) {
      break;
    }
  }
  t.stop(best);
}

OVERLAP_TRAIN(train)
