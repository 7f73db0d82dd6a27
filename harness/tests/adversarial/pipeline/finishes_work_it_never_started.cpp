// Adversarial: tells the client's io_context that work finished which never started
// (on_work_finished() without on_work_started(), against Asio's executor contract), then trains
// as the starter does. The context's outstanding work falls below the client's own reserve: a
// misuse, named when it happens, not a run that hangs until the time limit.
#include <boost/asio.hpp>
#include <overlap/pipeline.hpp>

namespace asio = boost::asio;
namespace pp = overlap::pipeline;
using asio::awaitable;
using asio::use_awaitable;

awaitable<void> train(pp::Pipeline& pipe) {
  auto& context = asio::query(co_await asio::this_coro::executor, asio::execution::context);
  static_cast<asio::io_context&>(context).get_executor().on_work_finished();
  for (int step = 0; step < pipe.steps(); ++step) {
    for (int mb = 0; mb < pipe.micro_batches(); ++mb) {
      pp::Tensor x = pipe.input(step, mb);
      for (int s = 0; s < pipe.num_stages(); ++s) {
        x = co_await pipe.stage(s).async_forward(mb, std::move(x), use_awaitable);
      }
      pp::Tensor g = pipe.loss_gradient(step, mb, x);
      for (int s = pipe.num_stages() - 1; s >= 0; --s) {
        g = co_await pipe.stage(s).async_backward(mb, std::move(g), use_awaitable);
      }
    }
    for (int s = 0; s < pipe.num_stages(); ++s) {
      co_await pipe.stage(s).async_optimizer_step(use_awaitable);
    }
  }
}

OVERLAP_TRAIN(train)
