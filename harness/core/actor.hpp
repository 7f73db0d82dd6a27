// Running submissions. A synchronous submission runs as a stackful actor (asio::spawn): its
// blocking calls (overlap/blocking.hpp) suspend only that actor, and the clock moves when every
// actor waits. A coroutine submission runs with co_spawn. Both share the simulator's one-thread
// io_context.
#pragma once

#include <boost/asio/awaitable.hpp>
#include <exception>
#include <functional>

#include "simulator.hpp"

namespace overlap::sim {

using Done = std::function<void(std::exception_ptr)>;

// Starts `body` as an actor; `done` is called when it returns or throws.
void spawn_actor(Simulator& sim, std::function<void()> body, Done done);

// Starts a coroutine; `done` is called when it completes or throws.
void spawn_coroutine(Simulator& sim, boost::asio::awaitable<void> body, Done done);

// Runs `body(i)` for i in [0, n) as n actors and blocks the calling actor until all return;
// rethrows the first exception. Call from an actor only.
void fork_join(Simulator& sim, int n, const std::function<void(int)>& body);

}  // namespace overlap::sim
