// Mutant: 1F1B over channels with no buffer. A channel send waits for its receiver, so stage 2
// sending an activation to stage 3 while stage 3 sends a gradient to stage 2 waits forever
// (deadlock, named with each stage's last operation).
#include <algorithm>
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

awaitable<void> run_stage(pp::Pipeline& pipe, int s, std::deque<Link>& acts,
                          std::deque<Link>& grads) {
  const int p = pipe.num_stages(), m = pipe.micro_batches();
  const bool first = s == 0, last = s + 1 == p;
  std::deque<pp::Tensor> outputs;
  for (int step = 0; step < pipe.steps(); ++step) {
    int f = 0, b = 0;
    while (b < m) {
      const bool do_forward = f < m && (f < std::min(p - s - 1, m) || f <= b);
      if (do_forward) {
        pp::Tensor x;
        if (first) {
          x = pipe.input(step, f);
        } else {
          x = co_await acts[s - 1].async_receive(use_awaitable);
        }
        pp::Tensor y = co_await pipe.stage(s).async_forward(f++, x, use_awaitable);
        if (last) {
          outputs.push_back(y);
        } else {
          co_await acts[s].async_send({}, y, use_awaitable);
        }
      } else {
        pp::Tensor g;
        if (last) {
          g = pipe.loss_gradient(step, b, outputs.front());
          outputs.pop_front();
        } else {
          g = co_await grads[s].async_receive(use_awaitable);
        }
        pp::Tensor dx = co_await pipe.stage(s).async_backward(b++, g, use_awaitable);
        if (!first) co_await grads[s - 1].async_send({}, dx, use_awaitable);
      }
    }
    co_await pipe.stage(s).async_optimizer_step(use_awaitable);
  }
}

awaitable<void> train(pp::Pipeline& pipe) {
  auto ex = co_await asio::this_coro::executor;
  std::deque<Link> acts, grads;
  for (int s = 0; s + 1 < pipe.num_stages(); ++s) {
    acts.emplace_back(ex, 0);  // the bug: no room, so every send waits for a receive
    grads.emplace_back(ex, 0);
  }
  using Run = decltype(asio::co_spawn(ex, awaitable<void>{}, asio::deferred));
  std::vector<Run> runs;
  for (int s = 0; s < pipe.num_stages(); ++s) {
    runs.push_back(asio::co_spawn(ex, run_stage(pipe, s, acts, grads), asio::deferred));
  }
  co_await asio::experimental::make_parallel_group(std::move(runs))
      .async_wait(asio::experimental::wait_for_all(), use_awaitable);
}

OVERLAP_TRAIN(train)
