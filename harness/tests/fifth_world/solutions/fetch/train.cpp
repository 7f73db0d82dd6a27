// Reference: one coroutine per link, each fetching its own shards in turn, all links at once.
// No link is ever idle or shared, so the makespan is the busiest link's work: the bound.
#include <boost/asio.hpp>
#include <boost/asio/experimental/parallel_group.hpp>
#include <exception>
#include <overlap/fetch.hpp>
#include <vector>

namespace asio = boost::asio;
namespace fetch = overlap::fetch;
using asio::awaitable;
using asio::use_awaitable;

awaitable<void> carry(fetch::Source& source, int link) {
  for (int s = link; s < source.num_shards(); s += source.num_links()) {
    co_await source.async_fetch(s, use_awaitable);
  }
}

awaitable<void> train(fetch::Source& source) {
  auto executor = co_await asio::this_coro::executor;
  std::vector<decltype(asio::co_spawn(executor, carry(source, 0), asio::deferred))> links;
  for (int l = 0; l < source.num_links(); ++l) {
    links.push_back(asio::co_spawn(executor, carry(source, l), asio::deferred));
  }
  auto [order, errors] = co_await asio::experimental::make_parallel_group(std::move(links))
                             .async_wait(asio::experimental::wait_for_all(), use_awaitable);
  for (const std::exception_ptr& e : errors) {
    if (e) std::rethrow_exception(e);
  }
}

OVERLAP_TRAIN(train)
