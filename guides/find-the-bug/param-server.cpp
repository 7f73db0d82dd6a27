// Find the bug: asynchronous SGD in which one server coroutine averages every gradient waiting
// for it. It builds and looks right, but the grader rejects it. Why?
#include <boost/asio.hpp>
#include <boost/asio/experimental/channel.hpp>
#include <boost/asio/experimental/parallel_group.hpp>
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

struct Report {  // a worker's gradient, or its failure
  int worker = -1, mini_batch = -1;
  error_code failed;
  ps::Gradient gradient;
};
using Pool = asio::experimental::channel<void(error_code, int)>;
using Reports = asio::experimental::channel<void(error_code, Report)>;
using Done = asio::experimental::channel<void(error_code)>;  // closed: stop

struct Training {
  ps::Cluster& cluster;
  Pool pool;              // mini-batches nobody holds
  Reports reports;        // room for every worker: sends never wait
  std::deque<Done> done;  // per worker: the server has taken its gradient
};

awaitable<void> worker_loop(Training& t, int w) {
  ps::Worker& worker = t.cluster.worker(w);
  for (;;) {
    auto [closed, mb] = co_await t.pool.async_receive(as_tuple(use_awaitable));
    if (closed) co_return;
    Report r{w, mb, {}, {}};
    auto [pull_failed, weights] = co_await worker.async_pull(as_tuple(use_awaitable));
    r.failed = pull_failed;
    if (!r.failed) {
      std::tie(r.failed, r.gradient) =
          co_await worker.async_compute(std::move(weights), mb, as_tuple(use_awaitable));
    }
    const bool failed = static_cast<bool>(r.failed);
    co_await t.reports.async_send(error_code{}, std::move(r), use_awaitable);
    if (failed) co_return;  // every later call on this worker would fail too
    auto [stop] = co_await t.done[w].async_receive(as_tuple(use_awaitable));
    if (stop) co_return;
  }
}

awaitable<void> server_loop(Training& t) {
  const int bound = t.cluster.staleness_bound();
  int applied = 0, working = t.cluster.num_workers();
  while (applied < t.cluster.mini_batches()) {
    std::vector<Report> waiting;
    waiting.push_back(co_await t.reports.async_receive(use_awaitable));
    while (t.reports.try_receive([&](error_code, Report r) { waiting.push_back(std::move(r)); })) {
    }
    std::vector<ps::Gradient> batch;
    std::vector<int> senders;
    for (Report& r : waiting) {
      const bool lost = r.failed || t.cluster.worker(r.worker).failed();
      const bool stale =
          !lost && bound >= 0 && t.cluster.server().version() - r.gradient.version() > bound;
      if (lost || stale) t.pool.try_send(error_code{}, r.mini_batch);  // someone else does it
      if (lost || (stale && working > 1)) {  // failed, or too slow for the bound: it stops
        t.done[r.worker].close();
        --working;
        continue;
      }
      if (!stale) {  // (a stale one of the last worker left: recomputed on fresh weights)
        senders.push_back(r.worker);
        batch.push_back(std::move(r.gradient));
      }
      t.done[r.worker].try_send(error_code{});  // its gradient is taken: on to the next
    }
    if (batch.empty()) continue;
    co_await t.cluster.server().async_apply_average(std::move(batch), use_awaitable);
    applied += static_cast<int>(senders.size());
  }
  t.pool.close();  // on the last apply: a mini-batch taken can still come back before it
}

awaitable<void> train(ps::Cluster& cluster) {
  auto ex = co_await asio::this_coro::executor;
  Training t{cluster, Pool(ex, cluster.mini_batches()), Reports(ex, cluster.num_workers()), {}};
  for (int mb = 0; mb < cluster.mini_batches(); ++mb) t.pool.try_send(error_code{}, mb);
  std::vector<decltype(asio::co_spawn(ex, server_loop(t), asio::deferred))> runs;
  runs.push_back(asio::co_spawn(ex, server_loop(t), asio::deferred));
  for (int w = 0; w < cluster.num_workers(); ++w) {
    t.done.emplace_back(ex, 1);
    runs.push_back(asio::co_spawn(ex, worker_loop(t, w), asio::deferred));
  }
  auto [order, errors] = co_await asio::experimental::make_parallel_group(std::move(runs))
                             .async_wait(asio::experimental::wait_for_one_error(), use_awaitable);
  for (std::size_t i : order)
    if (errors[i]) std::rethrow_exception(errors[i]);  // the first to fail, not its victims
}

OVERLAP_TRAIN(train)
