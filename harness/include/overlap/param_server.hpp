// The parameter-server world: a server holds the weights of a linear model and a version number;
// W workers, each at its own speed, turn mini-batches into gradients. Training is done when
// every mini-batch's gradient has been applied exactly once.
//
// Every operation comes in two forms that do the same thing:
//   Weights w = worker.pull();                                   // blocking
//   Weights w = co_await worker.async_pull(use_awaitable);       // asynchronous
// The async_ forms take any Asio completion token and complete with (error_code, result).
// Time is simulated: a 20 ms gradient advances the cluster's clock, not yours.
//
// The rules the grader checks (breaking one fails the run):
//   - A device runs one operation at a time. A worker is a device; so is the server, and every
//     push and apply_average occupies it: two at once is a contention error.
//   - Every mini-batch in [0, mini_batches()) is applied exactly once, by push or apply_average.
//   - Where the scenario sets a staleness bound, no gradient is applied staler than it:
//     staleness = the server's version just before the apply - the version it was computed on.
//   - The final model reaches the scenario's target loss.
//   - A worker can fail: a pull or compute it is running completes with errc::worker_failed (a
//     thrown system_error in blocking code; a push already under way still lands), and every
//     later call on it fails at once. Its mini-batch is not applied; someone else must do it.
#pragma once

#include <boost/asio/async_result.hpp>
#include <cstdint>
#include <functional>
#include <overlap/blocking.hpp>
#include <overlap/error.hpp>
#include <overlap/handle.hpp>
#include <overlap/handler.hpp>
#include <overlap/train.hpp>
#include <string>
#include <utility>
#include <vector>

namespace overlap::param_server {

namespace detail {
class Client;
}
class Cluster;

// The errors of this world, beside overlap::errc::misuse.
enum class errc {
  worker_failed = 1,  // the worker failed during the operation, or before it
};
namespace detail {
class Category final : public boost::system::error_category {
 public:
  const char* name() const noexcept override { return "overlap.param_server"; }
  std::string message(int value) const override {
    return value == static_cast<int>(errc::worker_failed) ? "the worker failed"
                                                          : "unknown param-server error";
  }
};
}  // namespace detail
inline const boost::system::error_category& category() {
  static const detail::Category instance;
  return instance;
}
inline boost::system::error_code make_error_code(errc e) {
  return {static_cast<int>(e), category()};
}

// A copy of the server's weights at one version, pulled by one worker (a handle: the copy stays
// on the cluster, overlap/handle.hpp). Move-only: compute() consumes it, so every gradient costs
// a pull (the worker reuses that buffer for its work). Moving from one leaves it empty (version
// and worker -1).
class Weights {
 public:
  Weights() = default;
  Weights(Weights&& other) noexcept { *this = std::move(other); }
  Weights& operator=(Weights&& other) noexcept {
    handle_ = std::exchange(other.handle_, 0);
    version_ = std::exchange(other.version_, -1);
    worker_ = std::exchange(other.worker_, -1);
    return *this;
  }
  int version() const { return version_; }
  int worker() const { return worker_; }  // the worker that pulled it

 private:
  friend struct overlap::detail::HandleAccess;
  Weights(std::int64_t handle, int version, int worker)
      : handle_(handle), version_(version), worker_(worker) {}
  std::int64_t handle_ = 0;
  int version_ = -1;
  int worker_ = -1;
};

// One mini-batch's gradient, computed by one worker on one version of the weights (a handle).
// Move-only: it lives on that worker until push() or apply_average() sends it. Moving from one
// leaves it empty (mini-batch, version and worker -1).
class Gradient {
 public:
  Gradient() = default;
  Gradient(Gradient&& other) noexcept { *this = std::move(other); }
  Gradient& operator=(Gradient&& other) noexcept {
    handle_ = std::exchange(other.handle_, 0);
    mini_batch_ = std::exchange(other.mini_batch_, -1);
    version_ = std::exchange(other.version_, -1);
    worker_ = std::exchange(other.worker_, -1);
    return *this;
  }
  int mini_batch() const { return mini_batch_; }
  int version() const { return version_; }  // the version of the weights it was computed on
  int worker() const { return worker_; }

 private:
  friend struct overlap::detail::HandleAccess;
  Gradient(std::int64_t handle, int mini_batch, int version, int worker)
      : handle_(handle), mini_batch_(mini_batch), version_(version), worker_(worker) {}
  std::int64_t handle_ = 0;
  int mini_batch_ = -1;
  int version_ = -1;
  int worker_ = -1;
};

class Worker {
 public:
  int index() const { return index_; }
  double ms_per_gradient() const;  // the mean time of compute() on this worker
  bool failed() const;             // free: whether this worker has failed

  // pull: a copy of the server's current weights and their version.
  //   costs     pull time (1 ms in the shipped scenarios) on this worker; the server is not busy
  //   requires  this worker idle
  template <typename Token>
  auto async_pull(Token&& token) {
    return boost::asio::async_initiate<Token, void(boost::system::error_code, Weights)>(
        [this](auto handler) { start_pull(std::move(handler)); }, token);
  }
  Weights pull() { return async_pull(blocking_call("Worker::pull")); }

  // compute: the gradient of one mini-batch's loss at `weights`.
  //   costs     this worker's time per gradient (ms_per_gradient(), varying in some scenarios)
  //   holds     the mini-batch: a worker holds at most one, since it runs one operation at once
  //   requires  this worker idle; weights pulled by this worker; mini_batch in [0, mini_batches())
  //   fails     with errc::worker_failed if the worker fails meanwhile
  template <typename Token>
  auto async_compute(Weights weights, int mini_batch, Token&& token) {
    return boost::asio::async_initiate<Token, void(boost::system::error_code, Gradient)>(
        [this](auto handler, Weights w, int mb) {
          start_compute(std::move(w), mb, std::move(handler));
        },
        token, std::move(weights), mini_batch);
  }
  Gradient compute(Weights weights, int mini_batch) {
    return async_compute(std::move(weights), mini_batch, blocking_call("Worker::compute"));
  }

  // push: sends this worker's gradient to the server, which applies it (one SGD step, version+1).
  //   costs     apply time (1 ms in most scenarios) on this worker AND on the server
  //   requires  this worker and the server idle (serialise pushes yourself); a gradient this
  //             worker computed; staleness within the bound, if the scenario sets one
  template <typename Token>
  auto async_push(Gradient gradient, Token&& token) {
    return boost::asio::async_initiate<Token, void(boost::system::error_code)>(
        [this](auto handler, Gradient g) { start_push(std::move(g), std::move(handler)); }, token,
        std::move(gradient));
  }
  void push(Gradient gradient) { async_push(std::move(gradient), blocking_call("Worker::push")); }

 private:
  friend class Cluster;
  friend class detail::Client;
  Worker(detail::Client& client, int index) : client_(&client), index_(index) {}

  void start_pull(Handler<Weights> handler);
  void start_compute(Weights weights, int mini_batch, Handler<Gradient> handler);
  void start_push(Gradient gradient, Handler<> handler);

  detail::Client* client_;
  int index_;
};

class ParameterServer {
 public:
  int version() const;  // free: the number of updates applied so far

  // apply_average: applies the average of several gradients as one update (version+1), as
  // synchronous SGD does.
  //   costs     apply time on the server and on every worker sending a gradient
  //   requires  the server and those workers idle; gradients not empty, from distinct workers
  //   fails     with errc::worker_failed, applying nothing, if a sending worker has failed
  template <typename Token>
  auto async_apply_average(std::vector<Gradient> gradients, Token&& token) {
    return boost::asio::async_initiate<Token, void(boost::system::error_code)>(
        [this](auto handler, std::vector<Gradient> g) {
          start_apply_average(std::move(g), std::move(handler));
        },
        token, std::move(gradients));
  }
  void apply_average(std::vector<Gradient> gradients) {
    async_apply_average(std::move(gradients), blocking_call("ParameterServer::apply_average"));
  }

 private:
  friend class Cluster;
  explicit ParameterServer(detail::Client& client) : client_(&client) {}
  void start_apply_average(std::vector<Gradient> gradients, Handler<>);
  detail::Client* client_;
};

class Cluster {
 public:
  int num_workers() const { return static_cast<int>(workers_.size()); }
  Worker& worker(int w) { return workers_.at(w); }
  ParameterServer& server() { return server_; }
  int mini_batches() const;
  // The largest staleness an applied gradient may have, or -1 when the scenario sets none.
  int staleness_bound() const;

  // Blocking fork-join for synchronous code: runs body(0) ... body(n-1) at once, each free to
  // make blocking calls, and returns when all have returned (rethrowing the first exception).
  void run_parallel(int n, const std::function<void(int)>& body);

 private:
  friend class detail::Client;
  explicit Cluster(detail::Client& client);

  detail::Client* client_;
  std::vector<Worker> workers_;
  ParameterServer server_;
};

}  // namespace overlap::param_server

template <>
struct boost::system::is_error_code_enum<overlap::param_server::errc> : std::true_type {};

namespace overlap {

// What train() takes in this exercise: `void train(overlap::param_server::Cluster&)` or its
// coroutine form, registered with OVERLAP_TRAIN(train) (overlap/train.hpp).
using ExerciseApi = param_server::Cluster;

}  // namespace overlap
