// Mutant: GPipe without a bound. Every stage runs all its forwards, then all its backwards, so
// stage 0 holds m stashes at once: more than its budget (out of memory).
#include <boost/asio.hpp>
#include <boost/asio/experimental/channel.hpp>
#include <boost/asio/experimental/parallel_group.hpp>
#include <deque>
#include <overlap/pipeline.hpp>

namespace asio = boost::asio;
namespace pp = overlap::pipeline;
using asio::awaitable;
using asio::use_awaitable;
using Link = asio::experimental::channel<void(boost::system::error_code, pp::Tensor)>;

awaitable<void> run_stage(pp::Pipeline& pipe, int s, Link* in, Link* out, Link* grad_in,
                          Link* grad_out) {
  const int m = pipe.micro_batches();
  for (int step = 0; step < pipe.steps(); ++step) {
    std::deque<pp::Tensor> outputs;
    for (int mb = 0; mb < m; ++mb) {
      pp::Tensor x;
      if (in) {
        x = co_await in->async_receive(use_awaitable);
      } else {
        x = pipe.input(step, mb);
      }
      pp::Tensor y = co_await pipe.stage(s).async_forward(mb, x, use_awaitable);
      if (out) {
        co_await out->async_send({}, y, use_awaitable);
      } else {
        outputs.push_back(y);
      }
    }
    for (int mb = 0; mb < m; ++mb) {
      pp::Tensor g;
      if (grad_in) {
        g = co_await grad_in->async_receive(use_awaitable);
      } else {
        g = pipe.loss_gradient(step, mb, outputs[mb]);
      }
      pp::Tensor dx = co_await pipe.stage(s).async_backward(mb, g, use_awaitable);
      if (grad_out) co_await grad_out->async_send({}, dx, use_awaitable);
    }
    co_await pipe.stage(s).async_optimizer_step(use_awaitable);
  }
}

awaitable<void> train(pp::Pipeline& pipe) {
  auto ex = co_await asio::this_coro::executor;
  const int p = pipe.num_stages();
  std::deque<Link> acts, grads;
  for (int s = 0; s + 1 < p; ++s) {
    acts.emplace_back(ex, pipe.micro_batches());
    grads.emplace_back(ex, pipe.micro_batches());
  }
  using Run = decltype(asio::co_spawn(ex, awaitable<void>{}, asio::deferred));
  std::vector<Run> runs;
  for (int s = 0; s < p; ++s) {
    runs.push_back(asio::co_spawn(
        ex,
        run_stage(pipe, s, s > 0 ? &acts[s - 1] : nullptr, s + 1 < p ? &acts[s] : nullptr,
                  s + 1 < p ? &grads[s] : nullptr, s > 0 ? &grads[s - 1] : nullptr),
        asio::deferred));
  }
  co_await asio::experimental::make_parallel_group(std::move(runs))
      .async_wait(asio::experimental::wait_for_all(), use_awaitable);
}

OVERLAP_TRAIN(train)
