// Mutant: prefetches the next layer alongside each forward, and frees the current layer's
// buffer as that prefetch starts, "the forward has its parameters already": the forward is
// still running on them (use after release).
#include <boost/asio.hpp>
#include <boost/asio/experimental/awaitable_operators.hpp>
#include <overlap/fsdp.hpp>

namespace asio = boost::asio;
namespace fsdp = overlap::fsdp;
using namespace asio::experimental::awaitable_operators;
using asio::use_awaitable;

asio::awaitable<void> train(fsdp::Rank& rank) {
  const int layers = rank.num_layers();
  auto prefetch_after = [&](int l) -> asio::awaitable<void> {
    if (l + 1 == layers) co_return;  // the last layer stays gathered for its backward
    rank.release(l);                 // the bug: forward(l) has not completed
    co_await rank.async_copy_in(l + 1, use_awaitable);
    co_await rank.async_all_gather(l + 1, use_awaitable);
  };
  co_await rank.async_copy_in(0, use_awaitable);
  co_await rank.async_all_gather(0, use_awaitable);
  for (int l = 0; l < layers; ++l) {
    co_await (rank.async_forward(l, use_awaitable) && prefetch_after(l));
  }
  for (int l = layers - 1; l >= 0; --l) {
    if (l + 1 < layers) {
      co_await rank.async_copy_in(l, use_awaitable);
      co_await rank.async_all_gather(l, use_awaitable);
    }
    co_await rank.async_backward(l, use_awaitable);
    co_await rank.async_reduce_scatter(l, use_awaitable);
    rank.release(l);
  }
  co_await rank.async_optimizer_step(use_awaitable);
}

OVERLAP_TRAIN(train)
