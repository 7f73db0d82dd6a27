#include "actor.hpp"

#include <boost/asio/co_spawn.hpp>
#include <boost/asio/post.hpp>
#include <boost/asio/spawn.hpp>
#include <memory>
#include <overlap/blocking.hpp>
#include <stdexcept>
#include <string>

namespace overlap::client {

namespace {

using Yield = boost::asio::basic_yield_context<boost::asio::any_io_executor>;

// The actor whose code runs now, if any.
thread_local Yield* current_actor = nullptr;

boost::asio::io_context& io() { return Connection::get().io(); }

}  // namespace

void spawn_actor(std::function<void()> body, Done done) {
  boost::asio::spawn(
      boost::asio::any_io_executor(io().get_executor()),
      [body = std::move(body)](Yield yield) {
        current_actor = &yield;
        body();
        current_actor = nullptr;
      },
      [done = std::move(done)](std::exception_ptr e) {
        current_actor = nullptr;
        done(e);
      });
}

void spawn_coroutine(boost::asio::awaitable<void> body, Done done) {
  boost::asio::co_spawn(io(), std::move(body), std::move(done));
}

void fork_join(int n, const std::function<void(int)>& body) {
  if (n <= 0) return;
  int remaining = n;
  std::exception_ptr first_error;
  detail::block("fork_join", [&](detail::Resume resume) {
    auto wake = std::make_shared<detail::Resume>(std::move(resume));
    for (int i = 0; i < n; ++i) {
      spawn_actor([&body, i] { body(i); },
                  [&, wake](std::exception_ptr e) {
                    if (e && !first_error) first_error = e;
                    if (--remaining == 0) boost::asio::post(io(), [wake] { (std::move(*wake))(); });
                  });
    }
  });
  if (first_error) std::rethrow_exception(first_error);
}

}  // namespace overlap::client

namespace overlap::detail {

void block(const char* operation, const std::function<void(Resume)>& start) {
  client::Yield* const yield = client::current_actor;
  if (yield == nullptr) {
    throw std::logic_error(std::string(operation) +
                           " is a blocking call, made outside synchronous code; from a coroutine "
                           "use its async_ form with co_await");
  }
  client::current_actor = nullptr;  // other actors run while this one waits
  struct Restore {
    client::Yield* yield;
    ~Restore() { client::current_actor = yield; }
  } restore{yield};
  // A call that throws while it starts (before it could complete) is the caller's exception:
  // the actor is woken and the exception rethrown in it, not in the event loop.
  std::exception_ptr refused;
  boost::asio::async_initiate<client::Yield&, void()>(
      [&](auto handler) {
        auto wake = std::make_shared<Resume>(std::move(handler));
        try {
          start(Resume([wake] { std::move (*wake)(); }));
        } catch (...) {
          refused = std::current_exception();
          boost::asio::post(client::io(), [wake] { std::move (*wake)(); });
        }
      },
      *yield);
  if (refused) std::rethrow_exception(refused);
}

}  // namespace overlap::detail
