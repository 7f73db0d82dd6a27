// Registering a submission: one line, `OVERLAP_TRAIN(train)`, after a function that is either
//   void train(World&)                          synchronous: blocking calls, one actor
//   boost::asio::awaitable<void> train(World&)  a coroutine: async_ calls with co_await
// The grader starts it once per run (once per rank in SPMD worlds) and waits for it to return.
#pragma once

#include <boost/asio/awaitable.hpp>

namespace overlap {

template <typename World>
struct Entry {
  void (*blocking)(World&) = nullptr;
  boost::asio::awaitable<void> (*coroutine)(World&) = nullptr;
};

template <typename World>
Entry<World> entry_of(void (*train)(World&)) {
  return {train, nullptr};
}

template <typename World>
Entry<World> entry_of(boost::asio::awaitable<void> (*train)(World&)) {
  return {nullptr, train};
}

}  // namespace overlap

#define OVERLAP_TRAIN(train) \
  decltype(::overlap::entry_of(train)) overlap_entry() { return ::overlap::entry_of(train); }
