// Style: one coroutine per stream, talking through channels that carry layer numbers. Free
// buffers are tokens in a channel (receive one to take a buffer, send it back to free it), and a
// credit lets the copier run one copy ahead of the gatherer. The four streams are joined with a
// variadic parallel group; the first failure cancels the others.
#include <algorithm>
#include <boost/asio.hpp>
#include <boost/asio/experimental/channel.hpp>
#include <boost/asio/experimental/parallel_group.hpp>
#include <overlap/fsdp.hpp>
#include <vector>

namespace asio = boost::asio;
namespace fsdp = overlap::fsdp;
using asio::awaitable;
using asio::use_awaitable;
using boost::system::error_code;

using Layers = asio::experimental::channel<void(error_code, int)>;
using Tokens = asio::experimental::channel<void(error_code)>;

awaitable<void> train(fsdp::Rank& rank) {
  auto ex = co_await asio::this_coro::executor;
  const int layers = rank.num_layers();
  // The last layers stay gathered from their forward to their backward, one per parameter
  // buffer: keeping fewer would let the gatherer, running ahead, regather one still gathered.
  const int kept = std::min(rank.param_buffers(), layers);
  std::vector<int> gathers;  // layers in the order their parameters are needed
  for (int l = 0; l < layers; ++l) gathers.push_back(l);
  for (int l = layers - kept - 1; l >= 0; --l) gathers.push_back(l);  // the kept stay gathered

  Layers copied(ex, 1), gathered(ex, gathers.size()), computed(ex, layers);
  Tokens copy_credit(ex, 1), free_params(ex, rank.param_buffers()),
      free_grads(ex, rank.grad_buffers());
  copy_credit.try_send(error_code{});
  for (int i = 0; i < rank.param_buffers(); ++i) free_params.try_send(error_code{});
  for (int i = 0; i < rank.grad_buffers(); ++i) free_grads.try_send(error_code{});

  auto copier = [&]() -> awaitable<void> {
    for (int l : gathers) {
      co_await copy_credit.async_receive(use_awaitable);
      co_await rank.async_copy_in(l, use_awaitable);
      co_await copied.async_send({}, l, use_awaitable);
    }
  };
  auto gatherer = [&]() -> awaitable<void> {
    for (std::size_t i = 0; i < gathers.size(); ++i) {
      const int l = co_await copied.async_receive(use_awaitable);
      co_await free_params.async_receive(use_awaitable);
      copy_credit.try_send(error_code{});
      co_await rank.async_all_gather(l, use_awaitable);
      co_await gathered.async_send({}, l, use_awaitable);
    }
  };
  auto release = [&](int l) {
    rank.release(l);
    free_params.try_send(error_code{});
  };
  auto compute = [&]() -> awaitable<void> {
    for (int l = 0; l < layers; ++l) {
      co_await gathered.async_receive(use_awaitable);
      co_await rank.async_forward(l, use_awaitable);
      if (l < layers - kept) release(l);
    }
    for (int l = layers - 1; l >= 0; --l) {
      if (l < layers - kept) co_await gathered.async_receive(use_awaitable);
      co_await free_grads.async_receive(use_awaitable);
      co_await rank.async_backward(l, use_awaitable);
      release(l);
      co_await computed.async_send({}, l, use_awaitable);
    }
  };
  auto reducer = [&]() -> awaitable<void> {
    for (int i = 0; i < layers; ++i) {
      const int l = co_await computed.async_receive(use_awaitable);
      co_await rank.async_reduce_scatter(l, use_awaitable);
      free_grads.try_send(error_code{});
    }
  };

  auto [order, e1, e2, e3, e4] =
      co_await asio::experimental::make_parallel_group(
          asio::co_spawn(ex, copier(), asio::deferred),
          asio::co_spawn(ex, gatherer(), asio::deferred),
          asio::co_spawn(ex, compute(), asio::deferred),
          asio::co_spawn(ex, reducer(), asio::deferred))
          .async_wait(asio::experimental::wait_for_one_error(), use_awaitable);
  // The first to fail, in completion order (the others were cancelled because of it).
  const std::exception_ptr errors[] = {e1, e2, e3, e4};
  for (std::size_t i : order) {
    if (errors[i]) std::rethrow_exception(errors[i]);
  }
  co_await rank.async_optimizer_step(use_awaitable);
}

OVERLAP_TRAIN(train)
