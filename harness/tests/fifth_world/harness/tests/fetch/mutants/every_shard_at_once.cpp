// Mutant: every shard's fetch started at once, with nothing to keep a link to one shard at a
// time (contention on every link).
#include <boost/asio.hpp>
#include <boost/asio/experimental/parallel_group.hpp>
#include <overlap/fetch.hpp>
#include <vector>

namespace asio = boost::asio;
namespace fetch = overlap::fetch;
using asio::awaitable;
using asio::use_awaitable;

awaitable<void> one(fetch::Source& source, int shard) {
  co_await source.async_fetch(shard, use_awaitable);
}

awaitable<void> train(fetch::Source& source) {
  auto executor = co_await asio::this_coro::executor;
  std::vector<decltype(asio::co_spawn(executor, one(source, 0), asio::deferred))> all;
  for (int s = 0; s < source.num_shards(); ++s) {
    all.push_back(asio::co_spawn(executor, one(source, s), asio::deferred));
  }
  co_await asio::experimental::make_parallel_group(std::move(all))
      .async_wait(asio::experimental::wait_for_all(), use_awaitable);
}

OVERLAP_TRAIN(train)
