// Adversarial: a coroutine that posts itself forever, never waiting on the cluster: the client
// never goes idle, virtual time never moves, and the real-time limit ends it.
#include <boost/asio.hpp>
#include <overlap/pipeline.hpp>

namespace asio = boost::asio;
namespace pp = overlap::pipeline;

asio::awaitable<void> train(pp::Pipeline&) {
  for (;;) co_await asio::post(co_await asio::this_coro::executor, asio::use_awaitable);
}

OVERLAP_TRAIN(train)
