// Asynchronous SGD on a parameter server: every worker loops on its own, taking the next
// mini-batch from a shared pool, and pushes its gradient as soon as it has one.
//
// Ideas to name in the interview:
//  - Pull-based work assignment: a shared pool (a channel of mini-batch numbers) keeps every
//    worker busy at its own speed; a static split would leave the fast ones idle at the end.
//  - The server applies one gradient at a time: a channel with room for one message is a lock
//    (send to take it, receive to give it back), and waiters queue in order.
//  - A failed worker's operation completes with an error: its mini-batch goes back to the pool
//    and the others carry on. Nobody waits for a worker that will never answer.
//  - Bounded staleness: a gradient too stale to apply is wasted work. A worker whose gradient
//    arrives too stale is too slow for the bound, so it returns its mini-batch and retires
//    (unless it is the last one working, which is never stale).
//  - When the last mini-batch is applied, closing the pool wakes every idle worker to finish.
#include <boost/asio.hpp>
#include <boost/asio/experimental/channel.hpp>
#include <boost/asio/experimental/parallel_group.hpp>
#include <overlap/param_server.hpp>
#include <vector>

namespace asio = boost::asio;
namespace ps = overlap::param_server;
using asio::as_tuple;
using asio::awaitable;
using asio::use_awaitable;
using boost::system::error_code;

using Pool = asio::experimental::channel<void(error_code, int)>;
using Lock = asio::experimental::channel<void(error_code)>;

struct Training {
  ps::Cluster& cluster;
  Pool pool;        // mini-batches waiting for a worker
  Lock server;      // held while a push is applied
  int applied = 0;  // mini-batches applied so far
  int working = 0;  // workers still taking mini-batches

  // Hands a mini-batch back for another worker, and this worker stops.
  void give_back(int mb) {
    pool.try_send(error_code{}, mb);
    --working;
  }
};

// One mini-batch through pull, compute and push. False when this worker must stop: it failed,
// or its gradient came back too stale for the bound.
awaitable<bool> process(Training& t, ps::Worker& worker, int mb) {
  auto [pull_failed, weights] = co_await worker.async_pull(as_tuple(use_awaitable));
  if (pull_failed) co_return false;
  auto [compute_failed, gradient] =
      co_await worker.async_compute(std::move(weights), mb, as_tuple(use_awaitable));
  if (compute_failed) co_return false;

  co_await t.server.async_send(error_code{}, use_awaitable);  // take the server
  const int bound = t.cluster.staleness_bound();
  if (bound >= 0 && t.cluster.server().version() - gradient.version() > bound) {
    t.server.try_receive([](error_code) {});  // give the server back
    if (t.working > 1) co_return false;       // too slow for the bound: retire
    t.pool.try_send(error_code{}, mb);        // the last worker: recompute on fresh weights
    co_return true;
  }
  auto [push_failed] = co_await worker.async_push(std::move(gradient), as_tuple(use_awaitable));
  t.server.try_receive([](error_code) {});  // give the server back
  if (push_failed) co_return false;
  if (++t.applied == t.cluster.mini_batches()) t.pool.close();
  co_return true;
}

awaitable<void> worker_loop(Training& t, int w) {
  for (;;) {
    auto [closed, mb] = co_await t.pool.async_receive(as_tuple(use_awaitable));
    if (closed) co_return;  // every mini-batch is applied
    const bool carry_on = co_await process(t, t.cluster.worker(w), mb);
    if (!carry_on) {
      t.give_back(mb);
      co_return;
    }
  }
}

awaitable<void> train(ps::Cluster& cluster) {
  auto executor = co_await asio::this_coro::executor;
  Training t{cluster, Pool(executor, cluster.mini_batches()), Lock(executor, 1)};
  for (int mb = 0; mb < cluster.mini_batches(); ++mb) t.pool.try_send(error_code{}, mb);

  using WorkerRun = decltype(asio::co_spawn(executor, awaitable<void>{}, asio::deferred));
  std::vector<WorkerRun> runs;
  for (int w = 0; w < cluster.num_workers(); ++w) {
    ++t.working;
    runs.push_back(asio::co_spawn(executor, worker_loop(t, w), asio::deferred));
  }
  auto [order, errors] = co_await asio::experimental::make_parallel_group(std::move(runs))
                             .async_wait(asio::experimental::wait_for_one_error(), use_awaitable);
  // The first to fail, in completion order: the others failed because it cancelled them.
  for (std::size_t i : order) {
    if (errors[i]) std::rethrow_exception(errors[i]);
  }
}

OVERLAP_TRAIN(train)
