// Design: lock-step slots. Each forward or backward is a slot, run as one `&&` group with the
// next slot's copy and gather and the previous backward's reduce-scatter; the whole group is
// waited for before the next slot starts. Correct on every scenario (one layer ahead when a
// second parameter buffer allows it, a reduce-scatter under the next backward when a second
// gradient buffer does), but not optimal: every slot lasts as long as its slowest member, so a
// large layer's gather or reduce-scatter holds up the small layers' computes around it, each
// copy waits for its slot instead of running ahead on the idle copy engine, and buffers beyond
// the second go unused.
#include <boost/asio.hpp>
#include <boost/asio/experimental/awaitable_operators.hpp>
#include <overlap/fsdp.hpp>
#include <vector>

namespace asio = boost::asio;
namespace fsdp = overlap::fsdp;
using namespace asio::experimental::awaitable_operators;
using asio::awaitable;
using asio::use_awaitable;

struct Slot {
  bool forward;
  int layer;
};

awaitable<void> train(fsdp::Rank& rank) {
  const int layers = rank.num_layers();
  const bool prefetch = rank.param_buffers() >= 2;     // room to gather the next layer
  const bool reduce_under = rank.grad_buffers() >= 2;  // room for the next backward's gradient

  std::vector<Slot> slots;
  for (int l = 0; l < layers; ++l) slots.push_back({true, l});
  for (int l = layers - 1; l >= 0; --l) slots.push_back({false, l});
  // Every slot's layer is gathered before it runs; the last layer stays gathered from its
  // forward to its backward.
  auto needs_gather = [&](const Slot& s) { return s.forward || s.layer != layers - 1; };

  auto compute = [&](Slot s) -> awaitable<void> {
    if (s.forward) {
      co_await rank.async_forward(s.layer, use_awaitable);
    } else {
      co_await rank.async_backward(s.layer, use_awaitable);
    }
  };
  auto fetch = [&](int layer, bool gather) -> awaitable<void> {
    if (layer < 0) co_return;
    co_await rank.async_copy_in(layer, use_awaitable);
    if (gather) co_await rank.async_all_gather(layer, use_awaitable);
  };
  auto reduce = [&](int layer) -> awaitable<void> {
    if (layer >= 0) co_await rank.async_reduce_scatter(layer, use_awaitable);
  };

  co_await fetch(0, true);
  for (std::size_t i = 0; i < slots.size(); ++i) {
    const Slot s = slots[i];
    const bool more = i + 1 < slots.size() && needs_gather(slots[i + 1]);
    const int next = more ? slots[i + 1].layer : -1;
    const int previous = !s.forward && reduce_under && s.layer + 1 < layers ? s.layer + 1 : -1;
    co_await (compute(s) && fetch(next, prefetch) && reduce(previous));
    if (!s.forward || s.layer + 1 < layers) rank.release(s.layer);
    if (!prefetch && next >= 0) co_await rank.async_all_gather(next, use_awaitable);
    if (!s.forward && !reduce_under) co_await rank.async_reduce_scatter(s.layer, use_awaitable);
  }
  if (reduce_under) co_await reduce(0);
  co_await rank.async_optimizer_step(use_awaitable);
}

OVERLAP_TRAIN(train)
