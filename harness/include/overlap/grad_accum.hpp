// The gradient-accumulation world: W workers compute micro-batch gradients for a linear model;
// an optimizer step averages exactly N of them, all computed on the current weights; every K
// steps a snapshot of the weights is validated on a validator, alongside training, and early
// stopping decides from the validation checks when training ends and which snapshot wins.
//
// Every operation comes in two forms that do the same thing:
//   Gradient g = worker.compute(weights, mb);                                 // blocking
//   Gradient g = co_await worker.async_compute(weights, mb, use_awaitable);   // asynchronous
// The async_ forms take any Asio completion token and complete with (error_code, result).
//
// The rules the grader checks (breaking one fails the run):
//   - A device runs one operation at a time: each worker, each validator, and the optimizer.
//   - Step s uses micro-batches s*N ... s*N + N-1, each exactly once, every gradient computed
//     on the weights of step s (the weights after s optimizer steps).
//   - Check c (c = 1, 2, ...) validates a snapshot taken right after step c*K. A snapshot holds
//     one of snapshot_slots() from snapshot() until its validation ends.
//   - Early stopping, over the checks in check order: a check improves when its loss is below
//     the best so far by more than min_delta(); training stops at the check that makes
//     patience() checks in a row without improvement, or at the last check of max_steps() if
//     none does. The result is the last check that improved (restore-best).
//   - stop(best) is called as soon as the deciding check's result and every earlier one are in,
//     with the best check's checkpoint. Every operation still running then is cancelled at that
//     same instant, and none starts after it: nothing runs past stop().
#pragma once

#include <boost/asio/async_result.hpp>
#include <cstdint>
#include <overlap/blocking.hpp>
#include <overlap/error.hpp>
#include <overlap/handle.hpp>
#include <overlap/handler.hpp>
#include <overlap/train.hpp>
#include <utility>
#include <vector>

namespace overlap::grad_accum {

namespace detail {
class Client;
}
class Trainer;

// The weights after some number of optimizer steps. A copy: cheap, and safe to keep.
class Weights {
 public:
  Weights() = default;
  int step() const { return step_; }  // optimizer steps applied before these weights

 private:
  friend struct overlap::detail::HandleAccess;
  Weights(std::int64_t handle, int step) : handle_(handle), step_(step) {}
  std::int64_t handle_ = 0;
  int step_ = -1;
};

// One micro-batch's gradient. Move-only: apply() consumes it.
class Gradient {
 public:
  Gradient() = default;
  Gradient(Gradient&& other) noexcept { *this = std::move(other); }
  Gradient& operator=(Gradient&& other) noexcept {
    handle_ = std::exchange(other.handle_, 0);
    micro_batch_ = std::exchange(other.micro_batch_, -1);
    step_ = std::exchange(other.step_, -1);
    return *this;
  }
  int micro_batch() const { return micro_batch_; }
  int step() const { return step_; }  // the step of the weights it was computed on

 private:
  friend struct overlap::detail::HandleAccess;
  Gradient(std::int64_t handle, int micro_batch, int step)
      : handle_(handle), micro_batch_(micro_batch), step_(step) {}
  std::int64_t handle_ = 0;
  int micro_batch_ = -1;
  int step_ = -1;
};

// A copy of the weights in a snapshot slot, waiting for validation. Move-only: validate()
// consumes it and frees its slot when the validation ends.
class Snapshot {
 public:
  Snapshot() = default;
  Snapshot(Snapshot&& other) noexcept { *this = std::move(other); }
  Snapshot& operator=(Snapshot&& other) noexcept {
    handle_ = std::exchange(other.handle_, 0);
    step_ = std::exchange(other.step_, -1);
    return *this;
  }
  int step() const { return step_; }

 private:
  friend struct overlap::detail::HandleAccess;
  Snapshot(std::int64_t handle, int step) : handle_(handle), step_(step) {}
  std::int64_t handle_ = 0;
  int step_ = -1;
};

// A validated snapshot, kept in host memory (outside the slots): its step, its loss, and its
// weights, for stop(). Cheap to copy.
class Checkpoint {
 public:
  Checkpoint() = default;
  int step() const { return step_; }
  double loss() const { return loss_; }

 private:
  friend struct overlap::detail::HandleAccess;
  Checkpoint(std::int64_t handle, int step, double loss)
      : handle_(handle), step_(step), loss_(loss) {}
  std::int64_t handle_ = 0;
  int step_ = -1;
  double loss_ = 0;
};

class Worker {
 public:
  int index() const { return index_; }
  double ms_per_gradient() const;

  // compute: the gradient of one micro-batch at `weights`.
  //   costs     this worker's time per gradient; the worker is busy
  //   requires  this worker idle
  //   cancel    through the handler's cancellation slot (e.g. the losing side of ||): ends now
  //             with operation_aborted
  template <typename Token>
  auto async_compute(Weights weights, int micro_batch, Token&& token) {
    return boost::asio::async_initiate<Token, void(boost::system::error_code, Gradient)>(
        [this](auto handler, Weights w, int mb) {
          start_compute(std::move(w), mb, std::move(handler));
        },
        token, std::move(weights), micro_batch);
  }
  Gradient compute(const Weights& weights, int micro_batch) {
    return async_compute(weights, micro_batch, blocking_call("Worker::compute"));
  }

 private:
  friend class Trainer;
  Worker(detail::Client& client, int index) : client_(&client), index_(index) {}
  void start_compute(Weights weights, int micro_batch, Handler<Gradient> handler);
  detail::Client* client_;
  int index_;
};

class Validator {
 public:
  int index() const { return index_; }

  // validate: the validation loss of a snapshot's weights.
  //   costs     the validation time on this validator
  //   frees     the snapshot's slot when it ends
  //   requires  this validator idle; snapshots validated in check order (the c-th call
  //             validates check c: the snapshot of step c*K)
  //   cancel    like compute
  template <typename Token>
  auto async_validate(Snapshot snapshot, Token&& token) {
    return boost::asio::async_initiate<Token, void(boost::system::error_code, Checkpoint)>(
        [this](auto handler, Snapshot s) { start_validate(std::move(s), std::move(handler)); },
        token, std::move(snapshot));
  }
  Checkpoint validate(Snapshot snapshot) {
    return async_validate(std::move(snapshot), blocking_call("Validator::validate"));
  }

 private:
  friend class Trainer;
  Validator(detail::Client& client, int index) : client_(&client), index_(index) {}
  void start_validate(Snapshot snapshot, Handler<Checkpoint> handler);
  detail::Client* client_;
  int index_;
};

class Trainer {
 public:
  int num_workers() const { return static_cast<int>(workers_.size()); }
  int num_validators() const { return static_cast<int>(validators_.size()); }
  Worker& worker(int w) { return workers_.at(w); }
  Validator& validator(int v) { return validators_.at(v); }

  int micro_batches_per_step() const;  // N
  int validate_every() const;          // K
  int snapshot_slots() const;
  int patience() const;
  double min_delta() const;
  int max_steps() const;

  int step() const;         // free: optimizer steps applied so far
  Weights weights() const;  // free: a copy of the current weights

  // apply: one optimizer step with the average of the step's N gradients.
  //   costs     the optimizer time on the optimizer device
  //   requires  the optimizer idle; exactly the current step's N micro-batches, each once, each
  //             computed on the current weights; no stop() before
  //   cancel    like compute; a cancelled step changes nothing
  template <typename Token>
  auto async_apply(std::vector<Gradient> gradients, Token&& token) {
    return boost::asio::async_initiate<Token, void(boost::system::error_code)>(
        [this](auto handler, std::vector<Gradient> g) {
          start_apply(std::move(g), std::move(handler));
        },
        token, std::move(gradients));
  }
  void apply(std::vector<Gradient> gradients) {
    async_apply(std::move(gradients), blocking_call("Trainer::apply"));
  }

  // snapshot: a copy of the current weights in a snapshot slot, for validation. Free, at once.
  //   holds     one snapshot slot until its validation ends
  Snapshot snapshot();

  // stop: the early-stopping decision, with the checkpoint of the best check. Free, at once.
  //   requires  once; every operation still running cancelled at this same instant, and none
  //             started after it (running-after-stop); best not empty
  void stop(const Checkpoint& best);

 private:
  friend class detail::Client;
  explicit Trainer(detail::Client& client);
  void start_apply(std::vector<Gradient> gradients, Handler<> handler);
  detail::Client* client_;
  std::vector<Worker> workers_;
  std::vector<Validator> validators_;
};

}  // namespace overlap::grad_accum

namespace overlap {

// What train() takes in this exercise: `void train(overlap::grad_accum::Trainer&)` or its coroutine
// form, registered with OVERLAP_TRAIN(train) (overlap/train.hpp).
using ExerciseApi = grad_accum::Trainer;

}  // namespace overlap
