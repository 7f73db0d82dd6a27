// A coroutine spawned on a thread_pool (to "run stages in parallel") calls the cluster from a
// pool thread. The client refuses the call as a misuse wherever it lands: here train waits on
// nothing else, so the judge sees no work at all and, before calling it a deadlock, waits for
// the pool thread to block; the refusal reaches the report every time, not when a race allows.
#include <boost/asio.hpp>
#include <overlap/pipeline.hpp>

namespace asio = boost::asio;
namespace pp = overlap::pipeline;

asio::awaitable<void> train(pp::Pipeline& pipe) {
  asio::thread_pool pool(1);
  pp::Tensor x = pipe.input(0, 0);
  co_await asio::co_spawn(
      pool,
      [&]() -> asio::awaitable<void> {
        x = co_await pipe.stage(0).async_forward(0, std::move(x), asio::use_awaitable);
      },
      asio::use_awaitable);
}

OVERLAP_TRAIN(train)
