// Turning a public operation into a call to the judge. An exercise's client calls each operation
// (its wire.hpp's struct, protocol/operation.hpp) with its handler; call() does the rest (the
// frame, cancellation, posting the handler with the judge's results).
#pragma once

#include <boost/asio/append.hpp>
#include <boost/asio/associated_cancellation_slot.hpp>
#include <boost/asio/post.hpp>
#include <cstdint>
#include <memory>
#include <overlap/handle.hpp>
#include <overlap/handler.hpp>
#include <tuple>
#include <type_traits>
#include <utility>

#include "../protocol/described.hpp"
#include "../protocol/operation.hpp"
#include "connection.hpp"

namespace overlap::detail {

// Builds the public handle types and reads their numbers (overlap/handle.hpp).
struct HandleAccess {
  template <typename T>
  static std::int64_t number(const T& object) {
    return object.handle_;
  }
  // A handle: its number and the facts it carries, through the type's private constructor.
  template <typename T, typename... Facts>
  static T make(std::int64_t number, Facts... facts) {
    return T(number, facts...);
  }
};

}  // namespace overlap::detail

namespace overlap::client {

template <typename Decode, typename... R>
class Call final : public Pending {
 public:
  Call(std::int64_t number, Handler<R...> handler, Decode decode)
      : number_(number), handler_(std::move(handler)), decode_(std::move(decode)) {}

  void complete(boost::system::error_code ec, protocol::Reader& results) override {
    auto slot = boost::asio::get_associated_cancellation_slot(handler_);
    if (slot.is_connected()) slot.clear();
    std::tuple<R...> values{};
    if (!ec) values = decode_(number_, results);
    results.end();
    std::apply(
        [&](auto&&... r) {
          boost::asio::post(Connection::get().io(),
                            boost::asio::append(std::move(handler_), ec, std::move(r)...));
        },
        std::move(values));
  }

 private:
  std::int64_t number_;
  Handler<R...> handler_;
  Decode decode_;
};

// The handle of a public object (a tensor, a gradient) as a call's argument.
template <typename T>
protocol::Handle handle(const T& object) {
  return protocol::Handle{detail::HandleAccess::number(object)};
}

// A handle of type T made by call `number`, with its facts (a described struct: ../protocol/
// described.hpp) read from the call's completion and passed on in their order: a `decode` for
// call().
template <typename T, typename Facts>
std::tuple<T> read_handle(std::int64_t number, protocol::Reader& results) {
  const Facts facts = protocol::read<Facts>(results);
  return [&]<template <typename...> class L, typename... D>(L<D...>) {
    return std::tuple<T>(detail::HandleAccess::make<T>(number, facts.*D::pointer...));
  }(boost::describe::describe_members<Facts, boost::describe::mod_public>{});
}

// What the judge's hello says of the exercise (a described struct), read whole.
template <typename Hello>
Hello read_hello() {
  protocol::Reader& hello = Connection::get().hello();
  Hello value = protocol::read<Hello>(hello);
  hello.end();
  return value;
}

// Has `apply` called with the values of every state frame (a described struct), read whole.
template <typename State, typename Apply>
void on_state(Apply apply) {
  Connection::get().on_state([apply = std::move(apply)](protocol::Reader& state) {
    apply(protocol::read<State>(state));
    state.end();
  });
}

// The call frame of `op` (protocol/operation.hpp), its arguments written. Throws
// system_error(errc::misuse) when called from a thread other than train's.
template <protocol::DeclaredOperation Op>
protocol::Writer request(const Op& op) {
  Connection& c = Connection::get();
  c.check_thread(Op::api.data());
  protocol::Writer w = c.request(protocol::code<Op>);
  protocol::write(w, op);
  return w;
}

// Sends `request`; `handler` completes when the judge completes the call, with the results
// `decode(call number, reader)` returns as a tuple (on an error: default values). The handler's
// cancellation slot, if connected, sends a cancellation.
template <typename... R, typename Decode>
void send(const protocol::Writer& request, Handler<R...> handler, Decode decode) {
  Connection& c = Connection::get();
  auto slot = boost::asio::get_associated_cancellation_slot(handler);
  const std::int64_t number = c.next_number();
  c.send(request,
         std::make_unique<Call<Decode, R...>>(number, std::move(handler), std::move(decode)));
  if (slot.is_connected()) {
    slot.assign([number](boost::asio::cancellation_type) { Connection::get().cancel(number); });
  }
}

// Calls `op`; `handler` completes when the judge completes it: with nothing (a Result of Done),
// or with the public object R the call made, its facts (the Result) read from the completion.
template <typename Op, typename... R>
requires(protocol::completes<Op>) void call(const Op& op, Handler<R...> handler) {
  if constexpr (std::is_same_v<typename Op::Result, protocol::Done>) {
    send(request(op), std::move(handler),
         [](std::int64_t, protocol::Reader&) { return std::tuple<>{}; });
  } else {
    send(request(op), std::move(handler), read_handle<R..., typename Op::Result>);
  }
}

// Calls `op`, which the judge does at once, with no completion: returns its call number (the
// handle of the object it made, if any).
template <typename Op>
requires(!protocol::completes<Op>) std::int64_t call(const Op& op) {
  return Connection::get().send(request(op), nullptr);
}

}  // namespace overlap::client
