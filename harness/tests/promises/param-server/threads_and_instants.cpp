// What the briefs' Asio notes promise of threads and instants, checked as the program runs (a
// broken promise throws, and the run fails saying which):
//  - a handler without an executor of its own runs on train's thread; one bound to a
//    thread_pool runs on the pool's;
//  - operations that end at one instant all complete before anything posted from the first of
//    their handlers runs, and a call refused at an instant completes after every handler posted
//    then, and posted by those;
//  - none of it costs time: the schedule is the starter's synchronous rounds (every live worker
//    pulls and computes one mini-batch, then the server averages them), with its makespans.
#include <boost/asio.hpp>
#include <boost/asio/experimental/channel.hpp>
#include <deque>
#include <functional>
#include <optional>
#include <overlap/param_server.hpp>
#include <stdexcept>
#include <string>
#include <thread>
#include <vector>

namespace asio = boost::asio;
namespace ps = overlap::param_server;
using boost::system::error_code;
using Finished = asio::experimental::channel<void(error_code)>;

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

struct Rounds {
  Rounds(ps::Cluster& cluster, asio::any_io_executor ex, asio::thread_pool& threads, Finished& done)
      : c(cluster), executor(std::move(ex)), pool(threads), finished(done) {}

  ps::Cluster& c;
  asio::any_io_executor executor;
  asio::thread_pool& pool;
  Finished& finished;
  const std::thread::id train_thread = std::this_thread::get_id();
  std::deque<int> todo;  // mini-batches not applied yet
  std::vector<std::optional<ps::Gradient>> gradients;
  int pulls_issued = 0, pulls_done = 0, working = 0;
  bool instant_checked = false;

  void on_train_thread(const char* handler) const {
    require(std::this_thread::get_id() == train_thread,
            std::string(handler) + " ran on a thread other than train's");
  }

  void round() {
    if (todo.empty()) return (void)finished.try_send(error_code{});
    gradients.clear();
    gradients.resize(c.num_workers());
    pulls_issued = pulls_done = working = 0;
    instant_checked = false;
    for (int w = 0; w < c.num_workers() && !todo.empty(); ++w) {
      if (c.worker(w).failed()) {
        refused_pull(w);
        continue;
      }
      const int mb = todo.front();
      todo.pop_front();
      ++pulls_issued;
      ++working;
      c.worker(w).async_pull([this, w, mb](error_code ec, ps::Weights weights) {
        on_train_thread("a pull's handler");
        ++pulls_done;
        if (ec) return lost(mb);
        if (!instant_checked) {
          // Every pull of the round began at once and takes as long: they all end now.
          instant_checked = true;
          asio::post(executor, [this] {
            require(pulls_done == pulls_issued,
                    "a handler posted at an instant ran before the pulls ending then completed");
          });
        }
        c.worker(w).async_compute(std::move(weights), mb,
                                  [this, w, mb](error_code ec, ps::Gradient g) {
                                    on_train_thread("a compute's handler");
                                    if (ec) return lost(mb);
                                    gradients[w].emplace(std::move(g));
                                    computed();
                                  });
      });
    }
    if (working == 0) round();
  }

  // A pull on a failed worker is refused at once: it completes after what was posted when it
  // was called, and posted by that. It is not part of the round.
  void refused_pull(int w) {
    auto posted = std::make_shared<bool>(false);
    c.worker(w).async_pull([this, posted](error_code ec, ps::Weights) {
      on_train_thread("a refused pull's handler");
      require(ec == ps::errc::worker_failed, "a failed worker's pull did not fail");
      require(*posted,
              "a call refused at an instant completed before the handlers posted then ran");
    });
    after_chain(executor, 3, [posted] { *posted = true; });
  }

  void lost(int mb) {  // the worker failed: its mini-batch goes round again
    todo.push_back(mb);
    computed();
  }

  void computed() {
    if (--working > 0) return;
    std::vector<ps::Gradient> round_gradients;
    for (auto& g : gradients) {
      if (g) round_gradients.push_back(std::move(*g));
    }
    if (round_gradients.empty()) return round();
    c.server().async_apply_average(std::move(round_gradients),
                                   asio::bind_executor(pool, [this](error_code ec) {
                                     require(std::this_thread::get_id() != train_thread,
                                             "a handler bound to a thread_pool ran on train's "
                                             "thread");
                                     require(!ec, "an average failed");
                                     // Back to train's thread: only it may call the cluster.
                                     asio::post(executor, [this] { round(); });
                                   }));
  }
};

asio::awaitable<void> train(ps::Cluster& cluster) {
  auto executor = co_await asio::this_coro::executor;
  asio::thread_pool pool(1);
  Finished finished(executor, 1);
  Rounds rounds(cluster, executor, pool, finished);
  for (int mb = 0; mb < cluster.mini_batches(); ++mb) rounds.todo.push_back(mb);
  rounds.round();
  co_await finished.async_receive(asio::use_awaitable);
  rounds.on_train_thread("train, resumed by a channel,");
}

OVERLAP_TRAIN(train)
