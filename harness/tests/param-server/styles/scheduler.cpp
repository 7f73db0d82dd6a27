// Style: one scheduler coroutine owns the pool, the server and every decision. A worker's pull
// and compute run as one small spawned job that reports to a channel; the loop takes reports in
// arrival order, judges staleness, pushes the gradient itself (so the server is never shared)
// and gives that worker its next mini-batch, or hands a failed worker's back to the pool.
#include <boost/asio.hpp>
#include <boost/asio/experimental/channel.hpp>
#include <deque>
#include <overlap/param_server.hpp>
#include <tuple>
#include <vector>

namespace asio = boost::asio;
namespace ps = overlap::param_server;
using asio::as_tuple;
using asio::awaitable;
using asio::use_awaitable;
using boost::system::error_code;

struct Report {
  int worker;
  int mb;
  error_code failed;
  ps::Gradient gradient;
};
using Reports = asio::experimental::channel<void(error_code, Report)>;

awaitable<void> job(ps::Worker& worker, int mb, Reports& reports) {
  auto [failed, weights] = co_await worker.async_pull(as_tuple(use_awaitable));
  ps::Gradient gradient;
  if (!failed) {
    std::tie(failed, gradient) =
        co_await worker.async_compute(std::move(weights), mb, as_tuple(use_awaitable));
  }
  co_await reports.async_send({}, Report{worker.index(), mb, failed, std::move(gradient)},
                              use_awaitable);
}

awaitable<void> train(ps::Cluster& c) {
  auto ex = co_await asio::this_coro::executor;
  const int bound = c.staleness_bound();
  Reports reports(ex, c.num_workers());
  std::deque<int> pool;
  for (int mb = 0; mb < c.mini_batches(); ++mb) pool.push_back(mb);
  std::vector<int> idle;
  int applied = 0, working = c.num_workers();

  auto assign = [&](int w) {
    if (pool.empty()) return idle.push_back(w);
    asio::co_spawn(ex, job(c.worker(w), pool.front(), reports), asio::detached);
    pool.pop_front();
  };
  auto give_back = [&](int mb) {
    pool.push_front(mb);
    if (idle.empty()) return;
    const int w = idle.back();
    idle.pop_back();
    assign(w);
  };

  for (int w = 0; w < c.num_workers(); ++w) assign(w);
  while (applied < c.mini_batches()) {
    Report r = co_await reports.async_receive(use_awaitable);
    if (r.failed) {  // the worker is gone; its mini-batch is not
      --working;
      give_back(r.mb);
    } else if (bound >= 0 && c.server().version() - r.gradient.version() > bound) {
      give_back(r.mb);
      if (working > 1) {
        --working;  // too slow for the bound: it retires
      } else {
        assign(r.worker);  // the last one left recomputes on fresh weights
      }
    } else {
      auto [push_failed] =
          co_await c.worker(r.worker).async_push(std::move(r.gradient), as_tuple(use_awaitable));
      if (push_failed) {
        --working;
        give_back(r.mb);
      } else {
        ++applied;
        assign(r.worker);
      }
    }
  }
}

OVERLAP_TRAIN(train)
