// Mutant: starts the next layer's gather and runs its forward without waiting for the gather
// to complete (a parameter used before its gather completed).
#include <boost/asio.hpp>
#include <overlap/fsdp.hpp>

namespace asio = boost::asio;
namespace fsdp = overlap::fsdp;
using asio::use_awaitable;

asio::awaitable<void> train(fsdp::Rank& rank) {
  const int layers = rank.num_layers();
  for (int l = 0; l < layers; ++l) {
    co_await rank.async_copy_in(l, use_awaitable);
    // The bug: the gather is started, never awaited before the forward.
    rank.async_all_gather(l, asio::detached);
    co_await rank.async_forward(l, use_awaitable);
  }
  co_return;
}

OVERLAP_TRAIN(train)
