// Style: plain completion-handler callbacks. A worker is a chain of handlers: take a mini-batch
// from the pool, pull, compute, queue the gradient for the server; the server pushes queued
// gradients one at a time, in arrival order. A failed worker hands its mini-batch back; a
// gradient over the staleness bound goes back too, and its (too slow) worker retires.
#include <boost/asio.hpp>
#include <boost/asio/experimental/channel.hpp>
#include <deque>
#include <overlap/param_server.hpp>
#include <vector>

namespace asio = boost::asio;
namespace ps = overlap::param_server;
using boost::system::error_code;
using Finished = asio::experimental::channel<void(error_code)>;

struct Run {
  Run(ps::Cluster& cluster, Finished& done) : c(cluster), finished(done) {}
  ps::Cluster& c;
  Finished& finished;
  std::deque<int> pool;            // mini-batches nobody holds
  std::deque<ps::Gradient> queue;  // gradients waiting for the server
  std::vector<int> parked;         // idle workers: the pool was empty
  int applied = 0, working = c.num_workers();
  bool server_busy = false;

  void next(int w) {
    if (pool.empty()) return parked.push_back(w);
    const int mb = pool.front();
    pool.pop_front();
    c.worker(w).async_pull([this, w, mb](error_code ec, ps::Weights weights) {
      if (ec) return lost(mb);
      c.worker(w).async_compute(std::move(weights), mb, [this, mb](error_code ec, ps::Gradient g) {
        if (ec) return lost(mb);
        queue.push_back(std::move(g));
        serve();
      });
    });
  }

  void give_back(int mb) {
    pool.push_front(mb);
    if (parked.empty()) return;
    const int w = parked.back();
    parked.pop_back();
    next(w);
  }

  void lost(int mb) {  // the worker failed: someone else does its mini-batch
    --working;
    give_back(mb);
  }

  void serve() {
    if (server_busy || queue.empty()) return;
    ps::Gradient g = std::move(queue.front());
    queue.pop_front();
    const int w = g.worker(), mb = g.mini_batch();
    const int bound = c.staleness_bound();
    if (bound >= 0 && c.server().version() - g.version() > bound) {
      give_back(mb);
      if (working > 1) {
        --working;  // too slow for the bound: retire
      } else {
        next(w);  // the last worker left: recompute on fresh weights
      }
      return serve();
    }
    server_busy = true;
    c.worker(w).async_push(std::move(g), [this, w, mb](error_code ec) {
      server_busy = false;
      if (ec) {
        lost(mb);
      } else if (++applied == c.mini_batches()) {
        return (void)finished.try_send(error_code{});
      } else {
        next(w);
      }
      serve();
    });
  }
};

asio::awaitable<void> train(ps::Cluster& cluster) {
  Finished finished(co_await asio::this_coro::executor, 1);
  Run run(cluster, finished);
  for (int mb = 0; mb < cluster.mini_batches(); ++mb) run.pool.push_back(mb);
  for (int w = 0; w < cluster.num_workers(); ++w) run.next(w);
  co_await finished.async_receive(asio::use_awaitable);
}

OVERLAP_TRAIN(train)
