// Mutant: every micro-batch as its own coroutine, all started at once, with nothing to make a
// stage run one operation at a time (contention on every stage).
#include <boost/asio.hpp>
#include <boost/asio/experimental/parallel_group.hpp>
#include <overlap/pipeline.hpp>

namespace asio = boost::asio;
namespace pp = overlap::pipeline;
using asio::awaitable;
using asio::use_awaitable;

awaitable<void> one_micro_batch(pp::Pipeline& pipe, int step, int mb) {
  pp::Tensor x = pipe.input(step, mb);
  for (int s = 0; s < pipe.num_stages(); ++s) {
    x = co_await pipe.stage(s).async_forward(mb, x, use_awaitable);
  }
  pp::Tensor g = pipe.loss_gradient(step, mb, x);
  for (int s = pipe.num_stages() - 1; s >= 0; --s) {
    g = co_await pipe.stage(s).async_backward(mb, g, use_awaitable);
  }
}

awaitable<void> train(pp::Pipeline& pipe) {
  auto ex = co_await asio::this_coro::executor;
  for (int step = 0; step < pipe.steps(); ++step) {
    using Run = decltype(asio::co_spawn(ex, awaitable<void>{}, asio::deferred));
    std::vector<Run> runs;
    for (int mb = 0; mb < pipe.micro_batches(); ++mb) {
      runs.push_back(asio::co_spawn(ex, one_micro_batch(pipe, step, mb), asio::deferred));
    }
    co_await asio::experimental::make_parallel_group(std::move(runs))
        .async_wait(asio::experimental::wait_for_all(), use_awaitable);
    for (int s = 0; s < pipe.num_stages(); ++s) {
      co_await pipe.stage(s).async_optimizer_step(use_awaitable);
    }
  }
}

OVERLAP_TRAIN(train)
