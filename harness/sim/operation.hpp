// Completing a candidate's handler when a simulated operation ends. Every world operation is an
// `async_initiate` front end (in the public header) over a type-erased handler; this is the one
// place that turns "runs on this device for this long" into a completion.
#pragma once

#include <boost/asio/any_completion_handler.hpp>
#include <boost/asio/append.hpp>
#include <boost/asio/associated_cancellation_slot.hpp>
#include <boost/asio/error.hpp>
#include <boost/asio/post.hpp>
#include <memory>
#include <overlap/error.hpp>
#include <overlap/handler.hpp>
#include <string>
#include <tuple>

#include "simulator.hpp"

namespace overlap::sim {

enum class Cancellable { no, yes };

// Completes `handler` at once with `ec` and default results, without running an operation: a
// call rejected up front. Posted, like every completion.
template <typename... R>
void complete_now(Simulator& sim, Handler<R...> handler, boost::system::error_code ec) {
  boost::asio::post(sim.io(), boost::asio::append(std::move(handler), ec, R{}...));
}

// A call that breaks its operation's requirements: a "misuse" violation saying why, and the
// operation completes at once with errc::misuse without running.
template <typename... R>
void reject(Simulator& sim, Handler<R...> handler, std::string message) {
  sim.violations().add("misuse", std::move(message), sim.now());
  complete_now(sim, std::move(handler), make_error_code(errc::misuse));
}

// A running operation whose handler completes at its planned end with `results`, or earlier
// through `fail()` or a cancellation (when `Cancellable::yes` and the handler has a connected
// cancellation slot), with an error and default results. Completions are always posted, never
// run inline: a cancellation is emitted from the candidate's own code.
template <typename... R>
class Operation {
 public:
  struct State {
    // Built in place: move-assigning an any_completion_handler recurses forever in Boost 1.81.
    State(Simulator& s, Handler<R...>&& h, std::tuple<R...>&& r, std::function<void(OpStatus)> e)
        : sim(&s), handler(std::move(h)), results(std::move(r)), on_end(std::move(e)) {}

    Simulator* sim;
    Handler<R...> handler;
    std::tuple<R...> results;
    OpId op = 0;
    EventId event{};
    bool done = false;
    std::function<void(OpStatus)> on_end;  // the world's bookkeeping (release memory, ...)
  };

  static std::shared_ptr<State> start(Simulator& sim, Device& device, OpInfo info, Time duration,
                                      Handler<R...> handler, std::tuple<R...> results,
                                      Cancellable cancellable = Cancellable::no,
                                      std::function<void(OpStatus)> on_end = {}) {
    auto st =
        std::make_shared<State>(sim, std::move(handler), std::move(results), std::move(on_end));
    st->op = sim.begin(device, std::move(info), duration);
    st->event = sim.schedule(sim.now() + duration,
                             [st] { finish(*st, OpStatus::done, boost::system::error_code{}); });
    if (cancellable == Cancellable::yes) {
      auto slot = boost::asio::get_associated_cancellation_slot(st->handler);
      if (slot.is_connected()) {
        slot.assign([weak = std::weak_ptr<State>(st)](boost::asio::cancellation_type) {
          if (auto s = weak.lock(); s && !s->done) {
            s->sim->unschedule(s->event);
            finish(*s, OpStatus::cancelled, boost::asio::error::operation_aborted);
          }
        });
      }
    }
    return st;
  }

  // Ends the operation now with `ec` (a worker failing mid-computation, ...). Takes its own
  // reference: the caller's may go with the operation's bookkeeping.
  static void fail(std::shared_ptr<State> st, boost::system::error_code ec) {
    if (st->done) return;
    st->sim->unschedule(st->event);
    finish(*st, OpStatus::failed, ec);
  }

 private:
  static void finish(State& st, OpStatus status, boost::system::error_code ec) {
    st.done = true;
    st.sim->end(st.op, status);
    if (st.on_end) st.on_end(status);
    auto slot = boost::asio::get_associated_cancellation_slot(st.handler);
    if (slot.is_connected()) slot.clear();
    auto results = status == OpStatus::done ? std::move(st.results) : std::tuple<R...>{};
    std::apply(
        [&](auto&&... r) {
          boost::asio::post(st.sim->io(),
                            boost::asio::append(std::move(st.handler), ec, std::move(r)...));
        },
        std::move(results));
  }
};

}  // namespace overlap::sim
