// Style: one coroutine per device, talking through channels. Each worker loops: take a
// mini-batch from the pool channel, pull, compute, mail the gradient to the server and wait for
// its answer. The server (train itself) pushes one gradient at a time, sends stale ones back to
// the pool and retires their worker, and closes the pool when every mini-batch is applied.
#include <boost/asio.hpp>
#include <boost/asio/experimental/channel.hpp>
#include <exception>
#include <memory>
#include <overlap/param_server.hpp>
#include <vector>

namespace asio = boost::asio;
namespace ps = overlap::param_server;
using asio::as_tuple;
using asio::awaitable;
using asio::use_awaitable;
using boost::system::error_code;

template <typename... T>
using Channel = asio::experimental::channel<void(error_code, T...)>;

struct Mail {
  int worker;
  int mb;
  ps::Gradient gradient;
};
enum Answer { applied, again, retire };

awaitable<void> train(ps::Cluster& c) {
  auto ex = co_await asio::this_coro::executor;
  const int workers = c.num_workers(), bound = c.staleness_bound();
  Channel<int> pool(ex, c.mini_batches());
  for (int mb = 0; mb < c.mini_batches(); ++mb) pool.try_send(error_code{}, mb);
  Channel<Mail> inbox(ex, workers);
  std::vector<std::unique_ptr<Channel<Answer>>> answers;
  for (int w = 0; w < workers; ++w) answers.push_back(std::make_unique<Channel<Answer>>(ex, 1));
  int working = workers;

  auto worker = [&](int w) -> awaitable<void> {
    for (;;) {
      auto [closed, mb] = co_await pool.async_receive(as_tuple(use_awaitable));
      if (closed) co_return;  // every mini-batch is applied
      auto [failed, weights] = co_await c.worker(w).async_pull(as_tuple(use_awaitable));
      if (!failed) {
        auto [compute_failed, gradient] =
            co_await c.worker(w).async_compute(std::move(weights), mb, as_tuple(use_awaitable));
        if (!compute_failed) {
          co_await inbox.async_send({}, Mail{w, mb, std::move(gradient)}, use_awaitable);
          if (co_await answers[w]->async_receive(use_awaitable) != retire) continue;
          co_return;  // retired: the server gave the mini-batch back
        }
      }
      --working;  // this worker failed: hand its mini-batch back
      pool.try_send(error_code{}, mb);
      co_return;
    }
  };

  Channel<std::exception_ptr> ended(ex, workers);
  for (int w = 0; w < workers; ++w) {
    asio::co_spawn(ex, worker(w), [&](std::exception_ptr e) { ended.try_send(error_code{}, e); });
  }
  for (int done = 0; done < c.mini_batches();) {
    Mail mail = co_await inbox.async_receive(use_awaitable);
    const bool stale = bound >= 0 && c.server().version() - mail.gradient.version() > bound;
    if (!stale) {
      auto [failed] = co_await c.worker(mail.worker)
                          .async_push(std::move(mail.gradient), as_tuple(use_awaitable));
      if (!failed) {
        ++done;
        answers[mail.worker]->try_send(error_code{}, applied);
        continue;
      }
    }
    // Not applied: the mini-batch goes back. A worker too slow for the bound retires, unless it
    // is the last one left; a worker that failed retires.
    pool.try_send(error_code{}, mail.mb);
    const Answer answer = stale && working == 1 ? again : retire;
    if (answer == retire) --working;
    answers[mail.worker]->try_send(error_code{}, answer);
  }
  pool.close();
  for (int w = 0; w < workers; ++w) {
    if (auto e = co_await ended.async_receive(use_awaitable)) std::rethrow_exception(e);
  }
}

OVERLAP_TRAIN(train)
