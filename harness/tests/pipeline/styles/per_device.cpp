// Style: one coroutine per stage, talking through channels. Each stage has a single inbox for
// activations (from the stage before) and gradients (from the stage after). It files what
// arrives in a backlog and runs a backward first, else a forward while it has a free stash, else
// waits for mail. The stages are spawned and report to a channel when they end.
#include <boost/asio.hpp>
#include <boost/asio/experimental/channel.hpp>
#include <deque>
#include <exception>
#include <memory>
#include <overlap/pipeline.hpp>
#include <vector>

namespace asio = boost::asio;
namespace pp = overlap::pipeline;
using asio::awaitable;
using asio::use_awaitable;
using boost::system::error_code;

struct Msg {
  bool gradient;
  int mb;
  pp::Tensor t;
};
using Inbox = asio::experimental::channel<void(error_code, Msg)>;

awaitable<void> stage_loop(pp::Pipeline& pipe, int s, std::vector<std::unique_ptr<Inbox>>& inbox) {
  const int p = pipe.num_stages(), m = pipe.micro_batches();
  pp::Stage& stage = pipe.stage(s);
  std::deque<Msg> activations, gradients;
  auto file = [&](error_code, Msg msg) {
    (msg.gradient ? gradients : activations).push_back(std::move(msg));
  };
  for (int step = 0; step < pipe.steps(); ++step) {
    int next_input = 0, stashes = 0, done = 0;
    while (done < m) {
      while (inbox[s]->try_receive(file)) {
      }
      if (s == 0 && activations.empty() && next_input < m) {
        activations.push_back({false, next_input, pipe.input(step, next_input)});
        ++next_input;
      }
      if (!gradients.empty()) {
        Msg g = std::move(gradients.front());
        gradients.pop_front();
        pp::Tensor dx = co_await stage.async_backward(g.mb, std::move(g.t), use_awaitable);
        --stashes;
        ++done;
        if (s > 0) {
          co_await inbox[s - 1]->async_send({}, Msg{true, g.mb, std::move(dx)}, use_awaitable);
        }
      } else if (!activations.empty() && stashes < pipe.stash_budget(s)) {
        Msg x = std::move(activations.front());
        activations.pop_front();
        ++stashes;
        pp::Tensor y = co_await stage.async_forward(x.mb, std::move(x.t), use_awaitable);
        if (s + 1 < p) {
          co_await inbox[s + 1]->async_send({}, Msg{false, x.mb, std::move(y)}, use_awaitable);
        } else {
          gradients.push_back({true, x.mb, pipe.loss_gradient(step, x.mb, y)});
        }
      } else {
        file({}, co_await inbox[s]->async_receive(use_awaitable));
      }
    }
    co_await stage.async_optimizer_step(use_awaitable);
  }
}

awaitable<void> train(pp::Pipeline& pipe) {
  auto ex = co_await asio::this_coro::executor;
  const int p = pipe.num_stages();
  std::vector<std::unique_ptr<Inbox>> inbox;
  for (int s = 0; s < p; ++s)
    inbox.push_back(std::make_unique<Inbox>(ex, 2 * pipe.micro_batches()));

  asio::experimental::channel<void(error_code, std::exception_ptr)> ended(ex, p);
  for (int s = 0; s < p; ++s) {
    asio::co_spawn(ex, stage_loop(pipe, s, inbox),
                   [&](std::exception_ptr e) { ended.try_send(error_code{}, e); });
  }
  for (int s = 0; s < p; ++s) {
    if (auto e = co_await ended.async_receive(use_awaitable)) std::rethrow_exception(e);
  }
}

OVERLAP_TRAIN(train)
