// Mutant: reduce-scatters overlap the backward, but every gather still waits for the layer
// before it to finish (correct, and slow: communication is not hidden).
#include <boost/asio.hpp>
#include <boost/asio/experimental/awaitable_operators.hpp>
#include <boost/asio/experimental/channel.hpp>
#include <overlap/fsdp.hpp>

namespace asio = boost::asio;
namespace fsdp = overlap::fsdp;
using namespace asio::experimental::awaitable_operators;
using asio::use_awaitable;
using Channel = asio::experimental::channel<void(boost::system::error_code)>;

asio::awaitable<void> train(fsdp::Rank& rank) {
  auto ex = co_await asio::this_coro::executor;
  const int layers = rank.num_layers();
  Channel ready(ex, layers), grads(ex, rank.grad_buffers());
  auto compute = [&]() -> asio::awaitable<void> {
    for (int l = 0; l < layers; ++l) {
      co_await rank.async_copy_in(l, use_awaitable);
      co_await rank.async_all_gather(l, use_awaitable);
      co_await rank.async_forward(l, use_awaitable);
      if (l + 1 < layers) rank.release(l);
    }
    for (int l = layers - 1; l >= 0; --l) {
      if (l + 1 < layers) {
        co_await rank.async_copy_in(l, use_awaitable);
        co_await rank.async_all_gather(l, use_awaitable);
      }
      co_await grads.async_send(boost::system::error_code{}, use_awaitable);
      co_await rank.async_backward(l, use_awaitable);
      rank.release(l);
      co_await ready.async_send(boost::system::error_code{}, use_awaitable);
    }
  };
  auto reduce = [&]() -> asio::awaitable<void> {
    for (int l = layers - 1; l >= 0; --l) {
      co_await ready.async_receive(use_awaitable);
      co_await rank.async_reduce_scatter(l, use_awaitable);
      grads.try_receive([](boost::system::error_code) {});
    }
  };
  co_await (compute() && reduce());
  co_await rank.async_optimizer_step(use_awaitable);
}

OVERLAP_TRAIN(train)
