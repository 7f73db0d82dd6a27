// The pipeline world: a small MLP split across p stages, one dense layer per stage, each stage
// its own device (think: one GPU). A training step pushes m micro-batches forward through every
// stage, then their gradients backward, then every stage applies one optimizer step.
//
// Every operation comes in two forms that do the same thing:
//   Tensor y = stage.forward(mb, x);                                 // blocking
//   Tensor y = co_await stage.async_forward(mb, x, use_awaitable);   // asynchronous
// The async_ forms take any Asio completion token (use_awaitable, deferred, as_tuple(...), a
// callback) and complete with (error_code, result). Time is simulated: an operation that takes
// 10 ms advances the cluster's clock, not yours.
//
// The rules the grader checks (breaking one fails the run):
//   - A stage runs one operation at a time. Submitting to a busy stage is a contention error.
//   - forward stashes an activation on its stage until that micro-batch's backward ends; a
//     stage holds at most stash_budget(s) stashes (more is out of memory).
//   - Each step, every stage runs forward and backward exactly once per micro-batch, then one
//     optimizer_step; the weights must equal a sequential run's.
#pragma once

#include <boost/asio/async_result.hpp>
#include <overlap/blocking.hpp>
#include <overlap/error.hpp>
#include <overlap/handler.hpp>
#include <overlap/tensor.hpp>
#include <overlap/train.hpp>
#include <vector>

namespace overlap::pipeline {

using overlap::Tensor;

namespace detail {
class Client;
}
class Pipeline;

class Stage {
 public:
  int index() const { return index_; }

  // forward: this stage's layer applied to one micro-batch.
  //   costs     the stage's forward time (10 ms in the default scenario); the stage is busy
  //   holds     one activation stash on this stage, from now until backward(micro_batch) ends
  //   requires  the stage idle; micro_batch in [0, micro_batches()) and not already in flight
  //             here; x = the previous stage's output (stage 0: pipeline.input(step, mb))
  //   returns   the next stage's input (last stage: the output for loss_gradient)
  template <typename Token>
  auto async_forward(int micro_batch, Tensor x, Token&& token) {
    return boost::asio::async_initiate<Token, void(boost::system::error_code, Tensor)>(
        [this](auto handler, int mb, Tensor in) {
          start_forward(mb, std::move(in), std::move(handler));
        },
        token, micro_batch, std::move(x));
  }
  Tensor forward(int micro_batch, const Tensor& x) {
    return async_forward(micro_batch, x, blocking_call("Stage::forward"));
  }

  // backward: gradients for one micro-batch; adds this layer's weight gradient to the step's sum.
  //   costs     the stage's backward time (20 ms in the default scenario); the stage is busy
  //   frees     the micro-batch's activation stash on this stage when it ends
  //   requires  the stage idle; forward(micro_batch) done on this stage; grad = the next
  //             stage's backward result (last stage: pipeline.loss_gradient(step, mb, output))
  //   returns   the gradient for the previous stage's backward (ignored on stage 0)
  template <typename Token>
  auto async_backward(int micro_batch, Tensor grad, Token&& token) {
    return boost::asio::async_initiate<Token, void(boost::system::error_code, Tensor)>(
        [this](auto handler, int mb, Tensor g) {
          start_backward(mb, std::move(g), std::move(handler));
        },
        token, micro_batch, std::move(grad));
  }
  Tensor backward(int micro_batch, const Tensor& grad) {
    return async_backward(micro_batch, grad, blocking_call("Stage::backward"));
  }

  // optimizer_step: applies the summed gradient to this stage's weights and clears the sum.
  //   costs     nothing in the shipped scenarios (the step time is all forward and backward)
  //   requires  the stage idle; every micro-batch of the step through backward on this stage
  template <typename Token>
  auto async_optimizer_step(Token&& token) {
    return boost::asio::async_initiate<Token, void(boost::system::error_code)>(
        [this](auto handler) { start_optimizer_step(std::move(handler)); }, token);
  }
  void optimizer_step() { async_optimizer_step(blocking_call("Stage::optimizer_step")); }

 private:
  friend class Pipeline;
  friend class detail::Client;
  Stage(detail::Client& client, int index) : client_(&client), index_(index) {}

  void start_forward(int micro_batch, Tensor x, Handler<Tensor> handler);
  void start_backward(int micro_batch, Tensor grad, Handler<Tensor> handler);
  void start_optimizer_step(Handler<> handler);

  detail::Client* client_;
  int index_;
};

class Pipeline {
 public:
  int num_stages() const { return static_cast<int>(stages_.size()); }
  int micro_batches() const;
  int steps() const;
  int stash_budget(int stage) const;  // activation stashes stage `stage` may hold at once

  Stage& stage(int s) { return stages_.at(s); }

  // The input of micro-batch `mb` of step `step`, for stage 0. Free: no time, no memory.
  Tensor input(int step, int micro_batch) const;

  // The loss gradient for the last stage's output of that micro-batch, to start its backward.
  // Free: no time, no memory.
  Tensor loss_gradient(int step, int micro_batch, const Tensor& output) const;

 private:
  friend class detail::Client;
  explicit Pipeline(detail::Client& client);

  detail::Client* client_;
  std::vector<Stage> stages_;
};

}  // namespace overlap::pipeline

namespace overlap {

// What train() takes in this exercise: `void train(overlap::pipeline::Pipeline&)` or its coroutine
// form, registered with OVERLAP_TRAIN(train) (overlap/train.hpp).
using ExerciseApi = pipeline::Pipeline;

}  // namespace overlap
