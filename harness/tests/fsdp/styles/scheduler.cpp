// Style: one scheduler coroutine per rank, in lockstep slots. Each slot runs, at once with the
// awaitable operator &&, this slot's forward or backward, the next gather (if a parameter buffer
// is free), the copy after it, and the reduce-scatter of the previous backward; then it releases
// the layer it used. Short and close to the bound, but a slot lasts as long as its slowest stream.
#include <boost/asio.hpp>
#include <boost/asio/experimental/awaitable_operators.hpp>
#include <overlap/fsdp.hpp>
#include <vector>

namespace asio = boost::asio;
namespace fsdp = overlap::fsdp;
using namespace asio::experimental::awaitable_operators;
using asio::awaitable;
using asio::use_awaitable;

awaitable<void> train(fsdp::Rank& rank) {
  const int layers = rank.num_layers();
  std::vector<int> gathers;  // layers in the order their parameters are needed
  for (int l = 0; l < layers; ++l) gathers.push_back(l);
  for (int l = layers - 2; l >= 0; --l) gathers.push_back(l);  // the last stays gathered
  const int n = int(gathers.size());

  // Each does nothing for layer -1, so that a slot can always name four operations.
  auto copy = [&](int l) -> awaitable<void> {
    if (l >= 0) co_await rank.async_copy_in(l, use_awaitable);
  };
  auto gather = [&](int l) -> awaitable<void> {
    if (l >= 0) co_await rank.async_all_gather(l, use_awaitable);
  };
  auto reduce = [&](int l) -> awaitable<void> {
    if (l >= 0) co_await rank.async_reduce_scatter(l, use_awaitable);
  };
  auto compute = [&](int slot) -> awaitable<void> {
    if (slot < layers) {
      co_await rank.async_forward(slot, use_awaitable);
    } else {
      co_await rank.async_backward(2 * layers - 1 - slot, use_awaitable);
    }
  };

  co_await copy(gathers[0]);
  co_await (gather(gathers[0]) && copy(gathers[1]));
  int next_gather = 1, next_copy = 2, held = 1, reducing = -1;  // held: gathered layers
  for (int slot = 0; slot < 2 * layers; ++slot) {
    const int layer = slot < layers ? slot : 2 * layers - 1 - slot;
    int g = -1, c = -1;
    if (next_gather < n && held < rank.param_buffers()) g = gathers[next_gather++], ++held;
    if (next_copy < n && next_copy <= next_gather) c = gathers[next_copy++];
    if (slot >= layers && rank.grad_buffers() < 2) {  // no room for two gradients at once
      co_await reduce(reducing);
      reducing = -1;
    }
    if (g == layer) {  // one parameter buffer: this slot's layer could not be gathered ahead
      co_await (gather(g) && copy(c));
      g = c = -1;
    }
    co_await (compute(slot) && gather(g) && copy(c) && reduce(reducing));
    reducing = slot >= layers ? layer : -1;
    if (slot != layers - 1) {  // the last layer stays gathered for its backward
      rank.release(layer);
      --held;
    }
  }
  co_await reduce(reducing);
  co_await rank.async_optimizer_step(use_awaitable);
}

OVERLAP_TRAIN(train)
