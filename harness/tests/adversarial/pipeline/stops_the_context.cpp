// Adversarial (and correct): the starter as a coroutine that stops its io_context after every
// call. A stop may neither fake an idle submission (a deadlock that did not happen) nor hide
// work: graded as the starter is.
#include <boost/asio.hpp>
#include <overlap/pipeline.hpp>

namespace asio = boost::asio;
namespace pp = overlap::pipeline;

asio::awaitable<void> stop_context() {
  auto executor = co_await asio::this_coro::executor;
  executor.target<asio::io_context::executor_type>()->context().stop();
}

asio::awaitable<void> train(pp::Pipeline& pipe) {
  for (int step = 0; step < pipe.steps(); ++step) {
    for (int mb = 0; mb < pipe.micro_batches(); ++mb) {
      pp::Tensor x = pipe.input(step, mb);
      for (int s = 0; s < pipe.num_stages(); ++s) {
        x = co_await pipe.stage(s).async_forward(mb, x, asio::use_awaitable);
        co_await stop_context();
      }
      pp::Tensor g = pipe.loss_gradient(step, mb, x);
      for (int s = pipe.num_stages() - 1; s >= 0; --s) {
        g = co_await pipe.stage(s).async_backward(mb, g, asio::use_awaitable);
        co_await stop_context();
      }
    }
    for (int s = 0; s < pipe.num_stages(); ++s) {
      co_await pipe.stage(s).async_optimizer_step(asio::use_awaitable);
    }
  }
}

OVERLAP_TRAIN(train)
