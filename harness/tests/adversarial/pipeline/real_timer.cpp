// Adversarial (and a common mistake): a real 30 us timer, whose completion in real time would
// land at a different simulated instant on every run. Refused at once, the same on every run.
#include <boost/asio.hpp>
#include <overlap/pipeline.hpp>

namespace asio = boost::asio;
namespace pp = overlap::pipeline;

asio::awaitable<void> train(pp::Pipeline& pipe) {
  asio::steady_timer timer(co_await asio::this_coro::executor, std::chrono::microseconds(30));
  co_await timer.async_wait(asio::use_awaitable);
  co_await pipe.stage(0).async_forward(0, pipe.input(0, 0), asio::use_awaitable);
}

OVERLAP_TRAIN(train)
