// What the briefs' Asio notes promise of one instant, checked as the program runs (a broken
// promise throws, and the run fails saying which):
//  - an operation that ends as it starts (the 0 ms optimizer step) completes at that instant once
//    nothing else is ready: after a chain of handlers posted after it was called;
//  - operations that end at one instant all complete before anything posted from the first of
//    their handlers runs.
// The schedule is the starter's, with every stage's optimizer step called at once: it takes no
// time, so the makespans are the starter's.
#include <boost/asio.hpp>
#include <boost/asio/experimental/channel.hpp>
#include <functional>
#include <overlap/pipeline.hpp>
#include <stdexcept>
#include <string>

namespace asio = boost::asio;
namespace pp = overlap::pipeline;
using boost::system::error_code;

void require(bool kept, const std::string& promise) {
  if (!kept) throw std::logic_error("broken promise: " + promise);
}

// Runs `then` at the end of a chain of handlers, each posted by the one before: once nothing else
// that was ready, or became ready meanwhile, is left to run.
void after_chain(const asio::any_io_executor& executor, int links, std::function<void()> then) {
  if (links == 0) return then();
  asio::post(executor, [executor, links, then = std::move(then)]() mutable {
    after_chain(executor, links - 1, std::move(then));
  });
}

asio::awaitable<void> train(pp::Pipeline& pipe) {
  auto executor = co_await asio::this_coro::executor;
  const int p = pipe.num_stages();
  asio::experimental::channel<void(error_code)> stepped(executor, 1);
  for (int step = 0; step < pipe.steps(); ++step) {
    for (int mb = 0; mb < pipe.micro_batches(); ++mb) {
      pp::Tensor x = pipe.input(step, mb);
      for (int s = 0; s < p; ++s) {
        x = co_await pipe.stage(s).async_forward(mb, x, asio::use_awaitable);
      }
      pp::Tensor g = pipe.loss_gradient(step, mb, x);
      for (int s = p - 1; s >= 0; --s) {
        g = co_await pipe.stage(s).async_backward(mb, g, asio::use_awaitable);
      }
    }
    int done = 0;
    bool posted = false;
    for (int s = 0; s < p; ++s) {
      pipe.stage(s).async_optimizer_step([&](error_code ec) {
        require(!ec, "an optimizer step failed: " + ec.message());
        require(posted, "a 0 ms operation completed before the handlers posted after its call ran");
        if (++done > 1) return;
        asio::post(executor, [&] {
          require(done == p,
                  "a handler posted at an instant ran before the operations ending then completed");
          stepped.try_send(error_code{});
        });
      });
    }
    after_chain(executor, 3, [&] { posted = true; });
    co_await stepped.async_receive(asio::use_awaitable);
  }
}

OVERLAP_TRAIN(train)
