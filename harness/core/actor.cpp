#include "actor.hpp"

#include <boost/asio/async_result.hpp>
#include <boost/asio/co_spawn.hpp>
#include <boost/asio/post.hpp>
#include <boost/asio/spawn.hpp>
#include <memory>
#include <stdexcept>

namespace overlap::sim {

void spawn_actor(Simulator& sim, std::function<void()> body, Done done) {
  // An any_io_executor, so that the actor's yield context is the one the worlds' blocking
  // forms are compiled for.
  boost::asio::spawn(
      boost::asio::any_io_executor(sim.io().get_executor()),
      [&sim, body = std::move(body)](Yield yield) {
        sim.current_actor = &yield;
        body();
        sim.current_actor = nullptr;
      },
      [&sim, done = std::move(done)](std::exception_ptr e) {
        sim.current_actor = nullptr;
        done(e);
      });
}

void spawn_coroutine(Simulator& sim, boost::asio::awaitable<void> body, Done done) {
  boost::asio::co_spawn(sim.io(), std::move(body), std::move(done));
}

namespace {

// n actors, then one wake-up for the actor that forked them.
struct Join {
  int remaining;
  std::exception_ptr first_error;
  std::function<void()> wake;
};

}  // namespace

void fork_join(Simulator& sim, int n, const std::function<void(int)>& body) {
  if (n <= 0) return;
  BlockingCall call(sim, "fork_join");
  auto join = std::make_shared<Join>(Join{n, nullptr, {}});
  auto wait = [&](auto handler) {
    join->wake = [&sim, h = std::make_shared<decltype(handler)>(std::move(handler))]() mutable {
      boost::asio::post(sim.io(), [h] { (*h)(); });
    };
    for (int i = 0; i < n; ++i) {
      spawn_actor(
          sim, [&body, i] { body(i); },
          [join](std::exception_ptr e) {
            if (e && !join->first_error) join->first_error = e;
            if (--join->remaining == 0) join->wake();
          });
    }
  };
  boost::asio::async_initiate<Yield&, void()>(wait, call.yield());
  if (join->first_error) std::rethrow_exception(join->first_error);
}

BlockingCall::BlockingCall(Simulator& sim, const char* operation)
    : yield_(sim.current_actor), sim_(&sim) {
  if (yield_ == nullptr) {
    throw std::logic_error(std::string(operation) +
                           " is a blocking call, made outside synchronous code; from a coroutine "
                           "use its async_ form with co_await");
  }
  sim.current_actor = nullptr;  // other actors run while this one waits
}

BlockingCall::~BlockingCall() { sim_->current_actor = yield_; }

}  // namespace overlap::sim
