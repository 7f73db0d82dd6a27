// Find the bug: a 1F1B pipeline that builds and looks right, but the grader rejects it. Why?
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

// One stage's actor, the only code that submits to pipe.stage(s). A null link: a pipeline end.
struct Actor {
  pp::Pipeline& pipe;
  int s;
  Link* acts_in;                        // activations from stage s - 1
  Link* acts_out;                       // activations to stage s + 1
  Link* grads_in;                       // gradients from stage s + 1
  Link* grads_out;                      // gradients to stage s - 1
  std::deque<pp::Tensor> outputs = {};  // last stage: outputs waiting for their loss gradient

  awaitable<void> forward(int step, int mb) {
    pp::Tensor x = acts_in ? co_await acts_in->async_receive(use_awaitable) : pipe.input(step, mb);
    pp::Tensor y = co_await pipe.stage(s).async_forward(mb, std::move(x), use_awaitable);
    if (acts_out) {
      co_await acts_out->async_send({}, std::move(y), use_awaitable);
    } else {
      outputs.push_back(std::move(y));
    }
  }

  awaitable<void> backward(int step, int mb) {
    pp::Tensor g;
    if (grads_in) {
      g = co_await grads_in->async_receive(use_awaitable);
    } else {
      g = pipe.loss_gradient(step, mb, outputs.front());
      outputs.pop_front();
    }
    pp::Tensor dx = co_await pipe.stage(s).async_backward(mb, std::move(g), use_awaitable);
    if (grads_out) co_await grads_out->async_send({}, std::move(dx), use_awaitable);
  }

  awaitable<void> run() {
    const int p = pipe.num_stages(), m = pipe.micro_batches();
    // 1F1B: stage s keeps p - s micro-batches in flight, enough to cover the round trip of its
    // oldest one to the last stage and back.
    const int in_flight = std::min(p - s, m);
    for (int step = 0; step < pipe.steps(); ++step) {
      int f = 0, b = 0;
      while (f < in_flight) co_await forward(step, f++);  // fill
      while (f < m) {                                     // steady state
        co_await forward(step, f++);
        co_await backward(step, b++);
      }
      while (b < m) co_await backward(step, b++);  // drain
      co_await pipe.stage(s).async_optimizer_step(use_awaitable);
    }
  }
};

awaitable<void> train(pp::Pipeline& pipe) {
  auto ex = co_await asio::this_coro::executor;
  const int p = pipe.num_stages(), m = pipe.micro_batches();
  std::deque<Link> acts,
      grads;  // link s joins stage s and s + 1; room for a step: sends never wait
  for (int s = 0; s + 1 < p; ++s) {
    acts.emplace_back(ex, m);
    grads.emplace_back(ex, m);
  }
  std::deque<Actor> actors;
  for (int s = 0; s < p; ++s) {
    const bool first = s == 0, last = s + 1 == p;
    actors.push_back({pipe, s, first ? nullptr : &acts[s - 1], last ? nullptr : &acts[s],
                      last ? nullptr : &grads[s], first ? nullptr : &grads[s - 1]});
  }
  std::vector<decltype(asio::co_spawn(ex, awaitable<void>{}, asio::deferred))> runs;
  for (Actor& a : actors) runs.push_back(asio::co_spawn(ex, a.run(), asio::deferred));
  auto [order, errors] = co_await asio::experimental::make_parallel_group(std::move(runs))
                             .async_wait(asio::experimental::wait_for_one_error(), use_awaitable);
  for (std::size_t i : order) {
    if (errors[i]) std::rethrow_exception(errors[i]);
  }
}

OVERLAP_TRAIN(train)
