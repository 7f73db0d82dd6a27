// Running the submission. A synchronous train runs as a stackful actor (asio::spawn): its
// blocking calls (overlap/blocking.hpp) suspend only that actor while the others run. A
// coroutine train runs with co_spawn. Both run on the connection's one-thread io_context.
#pragma once

#include <boost/asio/awaitable.hpp>
#include <exception>
#include <functional>
#include <overlap/train.hpp>
#include <vector>

#include "connection.hpp"

namespace overlap::client {

using Done = std::function<void(std::exception_ptr)>;

// Starts `body` as an actor; `done` is called when it returns or throws.
void spawn_actor(std::function<void()> body, Done done);

// Starts a coroutine; `done` is called when it completes or throws.
void spawn_coroutine(boost::asio::awaitable<void> body, Done done);

// Runs `body(i)` for i in [0, n) as n actors and blocks the calling actor until all return;
// rethrows the first exception. Call from an actor only.
void fork_join(int n, const std::function<void(int)>& body);

// Starts the submission once per actor (the world's API object: one, or one per rank) and
// serves the run until the judge ends it.
template <typename Api>
[[noreturn]] void run(const Entry<Api>& entry, const std::vector<Api*>& actors) {
  for (std::size_t i = 0; i < actors.size(); ++i) {
    Done done = [i](std::exception_ptr e) { Connection::get().actor_done(static_cast<int>(i), e); };
    Api& api = *actors[i];
    if (entry.blocking) {
      spawn_actor([&api, train = entry.blocking] { train(api); }, std::move(done));
    } else {
      spawn_coroutine(entry.coroutine(api), std::move(done));
    }
  }
  Connection::get().serve();
}

// The exercise's side of a run: reads the hello's parameters, builds the API objects the
// submission takes, and calls run(). Each world's client defines it for its API.
template <typename Api>
[[noreturn]] void start(const Entry<Api>& entry);

}  // namespace overlap::client
