// Style: one scheduler coroutine decides everything. It keeps each stage's 1F1B plan (warm-up
// forwards, then one forward / one backward), starts the next planned operation of every idle
// stage whose input has arrived, then waits for whichever operation ends first: each operation
// runs as a tiny spawned coroutine that reports to one channel. Optimizer steps: a parallel group.
#include <algorithm>
#include <boost/asio.hpp>
#include <boost/asio/experimental/channel.hpp>
#include <boost/asio/experimental/parallel_group.hpp>
#include <deque>
#include <map>
#include <overlap/pipeline.hpp>
#include <vector>

namespace asio = boost::asio;
namespace pp = overlap::pipeline;
using asio::awaitable;
using asio::use_awaitable;
using boost::system::error_code;

struct Done {
  int stage;
  int mb;
  bool backward;
  pp::Tensor out;
};
using Events = asio::experimental::channel<void(error_code, Done)>;

awaitable<void> run_op(pp::Stage& stage, bool backward, int mb, pp::Tensor in, Events& events) {
  pp::Tensor out = backward ? co_await stage.async_backward(mb, std::move(in), use_awaitable)
                            : co_await stage.async_forward(mb, std::move(in), use_awaitable);
  co_await events.async_send({}, Done{stage.index(), mb, backward, std::move(out)}, use_awaitable);
}

awaitable<void> train(pp::Pipeline& pipe) {
  auto ex = co_await asio::this_coro::executor;
  const int p = pipe.num_stages(), m = pipe.micro_batches();
  Events events(ex, p);  // at most one operation per stage in flight
  for (int step = 0; step < pipe.steps(); ++step) {
    // plan[s]: (backward?, micro-batch) in 1F1B order; the maps: inputs that have arrived.
    std::vector<std::deque<std::pair<bool, int>>> plan(p);
    std::vector<std::map<int, pp::Tensor>> activations(p), gradients(p);
    for (int s = 0; s < p; ++s) {
      const int warmup = std::min({p - s - 1, pipe.stash_budget(s) - 1, m});
      for (int f = 0, b = 0; b < m;) {  // warm-up forwards, then one forward, one backward
        const bool forward = f < m && f - b <= warmup;
        plan[s].push_back(forward ? std::pair{false, f++} : std::pair{true, b++});
      }
    }
    for (int mb = 0; mb < m; ++mb) activations[0][mb] = pipe.input(step, mb);

    std::vector<bool> busy(p);
    for (int left = 2 * p * m; left > 0; --left) {
      for (int s = 0; s < p; ++s) {
        if (busy[s] || plan[s].empty()) continue;
        auto [backward, mb] = plan[s].front();
        auto& arrived = backward ? gradients[s] : activations[s];
        auto it = arrived.find(mb);
        if (it == arrived.end()) continue;  // its input is still on the way
        busy[s] = true;
        asio::co_spawn(ex, run_op(pipe.stage(s), backward, mb, std::move(it->second), events),
                       [](std::exception_ptr e) {
                         if (e) std::rethrow_exception(e);
                       });
        arrived.erase(it);
        plan[s].pop_front();
      }
      Done done = co_await events.async_receive(use_awaitable);
      const int s = done.stage;
      busy[s] = false;
      if (done.backward) {
        if (s > 0) gradients[s - 1][done.mb] = std::move(done.out);
      } else if (s + 1 < p) {
        activations[s + 1][done.mb] = std::move(done.out);
      } else {
        gradients[s][done.mb] = pipe.loss_gradient(step, done.mb, done.out);
      }
    }

    using Op = decltype(pipe.stage(0).async_optimizer_step(asio::deferred));
    std::vector<Op> steps;
    for (int s = 0; s < p; ++s) steps.push_back(pipe.stage(s).async_optimizer_step(asio::deferred));
    auto [order, errors] = co_await asio::experimental::make_parallel_group(std::move(steps))
                               .async_wait(asio::experimental::wait_for_all(), use_awaitable);
    for (error_code ec : errors) {
      if (ec) throw boost::system::system_error(ec);
    }
  }
}

OVERLAP_TRAIN(train)
