// The fetch world: a dataset of num_shards() shards to fetch over num_links() network links.
// Shard s travels on link s % num_links() and takes the same time on every link. A link carries
// one shard at a time; different links run at once.
//
// Every operation comes in two forms that do the same thing:
//   source.fetch(shard);                                 // blocking
//   co_await source.async_fetch(shard, use_awaitable);  // asynchronous
//
// The rules the grader checks (breaking one fails the run):
//   - A link carries one shard at a time: a fetch on a busy link is a contention error.
//   - Every shard is fetched exactly once by the time train returns.
#pragma once

#include <boost/asio/async_result.hpp>
#include <overlap/blocking.hpp>
#include <overlap/error.hpp>
#include <overlap/handler.hpp>
#include <overlap/train.hpp>

namespace overlap::fetch {

namespace detail {
class Client;
}

class Source {
 public:
  int num_shards() const;
  int num_links() const;

  // fetch: brings shard `shard` in over link shard % num_links().
  //   costs     the fetch time (20 ms in the default scenario) on that link
  //   requires  the link idle; shard in [0, num_shards())
  template <typename Token>
  auto async_fetch(int shard, Token&& token) {
    return boost::asio::async_initiate<Token, void(boost::system::error_code)>(
        [this](auto handler, int s) { start_fetch(s, std::move(handler)); }, token, shard);
  }
  void fetch(int shard);

 private:
  friend class detail::Client;
  explicit Source(detail::Client& client) : client_(&client) {}
  void start_fetch(int shard, Handler<> handler);

  detail::Client* client_;
};

// The blocking form: the async_ form, waited for.
inline void Source::fetch(int shard) { async_fetch(shard, blocking_call("Source::fetch")); }

}  // namespace overlap::fetch

namespace overlap {

// What train() takes in this exercise: `void train(overlap::fetch::Source&)` or its coroutine
// form, registered with OVERLAP_TRAIN(train) (overlap/train.hpp).
using ExerciseApi = fetch::Source;

}  // namespace overlap
