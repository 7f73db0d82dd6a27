// Mutant: the reference's design with a copier that never waits (a channel with room for every
// copy). A layer's second copy, for its backward, can then land before its first gather has
// taken the first: the two merge, and the backward's gather has no copy of its own (misuse).
// Where copies and gathers keep pace (`default`, `eight-ranks`) it happens not to.
#include <algorithm>
#include <boost/asio.hpp>
#include <boost/asio/experimental/awaitable_operators.hpp>
#include <boost/asio/experimental/channel.hpp>
#include <overlap/fsdp.hpp>
#include <vector>

namespace asio = boost::asio;
namespace fsdp = overlap::fsdp;
using namespace asio::experimental::awaitable_operators;
using asio::awaitable;
using asio::use_awaitable;
using boost::system::error_code;

// A signal ("one more done") or, with capacity n, n buffers: a send takes one.
using Channel = asio::experimental::channel<void(error_code)>;

awaitable<void> train(fsdp::Rank& rank) {
  auto ex = co_await asio::this_coro::executor;
  const int layers = rank.num_layers();

  // The last `kept` layers stay gathered from their forward into their backward, one per
  // parameter buffer. Parameters are needed in this order: forwards 0 .. L-1, then the
  // backwards of the other layers, from the last down.
  const int kept = std::min(rank.param_buffers(), layers);
  std::vector<int> needed;
  for (int l = 0; l < layers; ++l) needed.push_back(l);
  for (int l = layers - kept - 1; l >= 0; --l) needed.push_back(l);

  Channel copied(ex, needed.size());  // the copier never waits for the gatherer
  Channel gathered(ex, needed.size());
  Channel gradient_ready(ex, layers);
  Channel params(ex, rank.param_buffers());
  Channel grads(ex, rank.grad_buffers());

  auto copier = [&]() -> awaitable<void> {
    for (int l : needed) {
      co_await rank.async_copy_in(l, use_awaitable);
      co_await copied.async_send(error_code{}, use_awaitable);
    }
  };

  auto gatherer = [&]() -> awaitable<void> {
    for (int l : needed) {
      co_await copied.async_receive(use_awaitable);
      co_await params.async_send(error_code{}, use_awaitable);  // hold a buffer
      co_await rank.async_all_gather(l, use_awaitable);
      co_await gathered.async_send(error_code{}, use_awaitable);
    }
  };

  auto release = [&](int l) {
    rank.release(l);
    params.try_receive([](error_code) {});  // its buffer is free again
  };

  auto compute = [&]() -> awaitable<void> {
    for (int l = 0; l < layers; ++l) {
      co_await gathered.async_receive(use_awaitable);
      co_await rank.async_forward(l, use_awaitable);
      if (l < layers - kept) release(l);
    }
    for (int l = layers - 1; l >= 0; --l) {
      if (l < layers - kept) co_await gathered.async_receive(use_awaitable);
      co_await grads.async_send(error_code{}, use_awaitable);  // hold a gradient buffer
      co_await rank.async_backward(l, use_awaitable);
      release(l);
      co_await gradient_ready.async_send(error_code{}, use_awaitable);
    }
  };

  auto reducer = [&]() -> awaitable<void> {
    for (int l = layers - 1; l >= 0; --l) {
      co_await gradient_ready.async_receive(use_awaitable);
      co_await rank.async_reduce_scatter(l, use_awaitable);
      grads.try_receive([](error_code) {});  // its gradient buffer is free again
    }
  };

  co_await (copier() && gatherer() && compute() && reducer());
  co_await rank.async_optimizer_step(use_awaitable);
}

OVERLAP_TRAIN(train)
