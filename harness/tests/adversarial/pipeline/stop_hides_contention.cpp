// Adversarial: two forwards on one stage at once (a contention), then the io_context stopped
// before anything else runs, hoping the judge never hears of the second. Every call reaches the
// judge in order: the contention is reported.
#include <boost/asio.hpp>
#include <overlap/pipeline.hpp>

namespace asio = boost::asio;
namespace pp = overlap::pipeline;

asio::awaitable<void> train(pp::Pipeline& pipe) {
  auto executor = co_await asio::this_coro::executor;
  pp::Stage& stage = pipe.stage(0);
  stage.async_forward(0, pipe.input(0, 0), asio::detached);
  stage.async_forward(1, pipe.input(0, 1), asio::detached);
  executor.target<asio::io_context::executor_type>()->context().stop();
  co_return;
}

OVERLAP_TRAIN(train)
