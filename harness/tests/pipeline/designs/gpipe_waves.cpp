// Design: GPipe in waves. GPipe (every forward, then every backward) holds m stashes on every
// stage, more than the budget allows; so run it in waves as large as the tightest budget: that
// many forwards through every stage, then their backwards, then the next wave. One coroutine per
// stage, channels between neighbours.
//
// Correct, but not optimal: every wave fills the pipeline and drains it again, so each pays the
// fill-and-drain bubble that 1F1B pays once a step; and the wave is as small as the smallest
// budget anywhere (often one stash, on the last stage), while 1F1B keeps p - s micro-batches in
// flight on stage s whatever the other stages' budgets are.
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
using Link = asio::experimental::channel<void(boost::system::error_code, pp::Tensor)>;

awaitable<void> run_stage(pp::Pipeline& pipe, int s, int wave, Link* in, Link* out, Link* grad_in,
                          Link* grad_out) {
  const int m = pipe.micro_batches();
  for (int step = 0; step < pipe.steps(); ++step) {
    for (int first = 0; first < m; first += wave) {
      const int last = std::min(m, first + wave);
      std::deque<pp::Tensor> outputs;  // last stage: the wave's outputs, for their gradients
      for (int mb = first; mb < last; ++mb) {
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
      for (int mb = first; mb < last; ++mb) {
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
    }
    co_await pipe.stage(s).async_optimizer_step(use_awaitable);
  }
}

awaitable<void> train(pp::Pipeline& pipe) {
  auto ex = co_await asio::this_coro::executor;
  const int p = pipe.num_stages(), m = pipe.micro_batches();
  int wave = m;
  for (int s = 0; s < p; ++s) wave = std::min(wave, pipe.stash_budget(s));

  std::deque<Link> acts, grads;
  for (int s = 0; s + 1 < p; ++s) {
    acts.emplace_back(ex, m);
    grads.emplace_back(ex, m);
  }
  using Run = decltype(asio::co_spawn(ex, awaitable<void>{}, asio::deferred));
  std::vector<Run> runs;
  for (int s = 0; s < p; ++s) {
    runs.push_back(asio::co_spawn(
        ex,
        run_stage(pipe, s, wave, s > 0 ? &acts[s - 1] : nullptr, s + 1 < p ? &acts[s] : nullptr,
                  s + 1 < p ? &grads[s] : nullptr, s > 0 ? &grads[s - 1] : nullptr),
        asio::deferred));
  }
  auto [order, errors] = co_await asio::experimental::make_parallel_group(std::move(runs))
                             .async_wait(asio::experimental::wait_for_one_error(), use_awaitable);
  for (std::size_t i : order) {
    if (errors[i]) std::rethrow_exception(errors[i]);
  }
}

OVERLAP_TRAIN(train)
