// Pipeline training with the 1F1B schedule: one coroutine per stage, channels between
// neighbours, all stages joined with a parallel group.
//
// Ideas to name in the interview:
//  - Each stage is an actor that owns its device: only its own coroutine submits to it, one
//    operation at a time, so there is no contention and no lock.
//  - Micro-batches keep every stage busy at once; the bubble is the (p-1) slots it takes to fill
//    and drain the pipeline: (p-1)/(m+p-1) of a flushed step.
//  - 1F1B bounds memory: stage s runs p-s-1 warm-up forwards (fewer if its stash budget is
//    smaller), then alternates one forward with one backward, so it never holds more than p-s
//    stashes (GPipe's all-forwards-first needs m).
//  - The step is flushed: every stage finishes its backwards before its optimizer step, so every
//    gradient of the step is computed on the same weights, as in the sequential version.
#include <algorithm>
#include <boost/asio.hpp>
#include <boost/asio/experimental/channel.hpp>
#include <boost/asio/experimental/parallel_group.hpp>
#include <deque>
#include <overlap/pipeline.hpp>
#include <vector>

namespace asio = boost::asio;
namespace pp = overlap::pipeline;
using asio::awaitable;
using asio::use_awaitable;

// Tensors flowing between neighbouring stages, in micro-batch order.
using Link = asio::experimental::channel<void(boost::system::error_code, pp::Tensor)>;

// One stage's loop over all steps. `in`/`out` carry activations from the previous stage and to
// the next; `grad_in`/`grad_out` carry gradients from the next stage and to the previous. A
// null link is the end of the pipeline.
struct StageLoop {
  pp::Pipeline& pipe;
  int s;
  Link* in;
  Link* out;
  Link* grad_in;
  Link* grad_out;
  std::deque<pp::Tensor> outputs = {};  // last stage: forward results awaiting their backward

  awaitable<void> forward(int step, int mb) {
    pp::Tensor x;
    if (in) {
      x = co_await in->async_receive(use_awaitable);
    } else {
      x = pipe.input(step, mb);
    }
    pp::Tensor y = co_await pipe.stage(s).async_forward(mb, std::move(x), use_awaitable);
    if (out) {
      co_await out->async_send({}, std::move(y), use_awaitable);
    } else {
      outputs.push_back(std::move(y));
    }
  }

  awaitable<void> backward(int step, int mb) {
    pp::Tensor g;
    if (grad_in) {
      g = co_await grad_in->async_receive(use_awaitable);
    } else {
      g = pipe.loss_gradient(step, mb, outputs.front());
      outputs.pop_front();
    }
    pp::Tensor dx = co_await pipe.stage(s).async_backward(mb, std::move(g), use_awaitable);
    if (grad_out) co_await grad_out->async_send({}, std::move(dx), use_awaitable);
  }

  awaitable<void> run() {
    const int m = pipe.micro_batches();
    // p-s-1 warm-up forwards hide the round trip; a smaller stash budget caps them.
    const int warmup = std::min({pipe.num_stages() - s - 1, pipe.stash_budget(s) - 1, m});
    for (int step = 0; step < pipe.steps(); ++step) {
      int next_forward = 0;
      int next_backward = 0;
      while (next_forward < warmup) co_await forward(step, next_forward++);
      while (next_forward < m) {  // steady state: one forward, one backward
        co_await forward(step, next_forward++);
        co_await backward(step, next_backward++);
      }
      while (next_backward < m) co_await backward(step, next_backward++);  // drain
      co_await pipe.stage(s).async_optimizer_step(use_awaitable);
    }
  }
};

awaitable<void> train(pp::Pipeline& pipe) {
  auto executor = co_await asio::this_coro::executor;
  const int p = pipe.num_stages();

  // Links between stage s and s+1, with room for a whole step so that a send never waits.
  std::deque<Link> activations, gradients;
  for (int s = 0; s + 1 < p; ++s) {
    activations.emplace_back(executor, pipe.micro_batches());
    gradients.emplace_back(executor, pipe.micro_batches());
  }
  std::deque<StageLoop> stages;
  for (int s = 0; s < p; ++s) {
    const bool first = s == 0, last = s + 1 == p;
    stages.push_back({pipe, s, first ? nullptr : &activations[s - 1],
                      last ? nullptr : &activations[s], last ? nullptr : &gradients[s],
                      first ? nullptr : &gradients[s - 1]});
  }

  // Run every stage at once; if one fails, the group cancels the others.
  using StageRun = decltype(asio::co_spawn(executor, awaitable<void>{}, asio::deferred));
  std::vector<StageRun> runs;
  for (StageLoop& stage : stages) {
    runs.push_back(asio::co_spawn(executor, stage.run(), asio::deferred));
  }
  auto [order, errors] = co_await asio::experimental::make_parallel_group(std::move(runs))
                             .async_wait(asio::experimental::wait_for_one_error(), use_awaitable);
  // The first to fail, in completion order: the others failed because it cancelled them.
  for (std::size_t i : order) {
    if (errors[i]) std::rethrow_exception(errors[i]);
  }
}

OVERLAP_TRAIN(train)
