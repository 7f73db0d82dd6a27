// Style: plain completion-handler callbacks; no coroutine does any of the work.
// Each stage is a small state machine. A completion handler hands its result to the neighbour's
// queue and kicks both stages; an idle stage runs a ready backward first, else a ready forward
// while it has a free stash. train is a coroutine only to wait for the last optimizer step.
#include <boost/asio.hpp>
#include <boost/asio/experimental/channel.hpp>
#include <deque>
#include <overlap/pipeline.hpp>
#include <vector>

namespace asio = boost::asio;
namespace pp = overlap::pipeline;
using boost::system::error_code;
using Finished = asio::experimental::channel<void(error_code)>;

struct Ready {
  int mb;
  pp::Tensor t;
};

struct StageState {
  std::deque<Ready> forwards, backwards;  // inputs that have arrived
  int stashes = 0, backwards_done = 0, step = 0, next_input = 0;
  bool busy = false;
};

struct Run {
  pp::Pipeline& pipe;
  Finished& finished;
  std::vector<StageState> st;
  int stages_finished = 0;

  void kick(int s) {
    StageState& me = st[s];
    if (me.busy || me.step == pipe.steps()) return;
    if (s == 0 && me.forwards.empty() && me.next_input < pipe.micro_batches()) {
      me.forwards.push_back({me.next_input, pipe.input(me.step, me.next_input)});
      ++me.next_input;
    }
    if (!me.backwards.empty()) {
      Ready g = std::move(me.backwards.front());
      me.backwards.pop_front();
      me.busy = true;
      pipe.stage(s).async_backward(g.mb, std::move(g.t),
                                   [this, s, mb = g.mb](error_code ec, pp::Tensor dx) {
                                     if (ec) return fail(ec);
                                     st[s].busy = false;
                                     --st[s].stashes;
                                     if (s > 0) {
                                       st[s - 1].backwards.push_back({mb, std::move(dx)});
                                       kick(s - 1);
                                     }
                                     if (++st[s].backwards_done == pipe.micro_batches())
                                       return optimize(s);
                                     kick(s);
                                   });
    } else if (!me.forwards.empty() && me.stashes < pipe.stash_budget(s)) {
      Ready x = std::move(me.forwards.front());
      me.forwards.pop_front();
      me.busy = true;
      ++me.stashes;
      pipe.stage(s).async_forward(
          x.mb, std::move(x.t), [this, s, mb = x.mb](error_code ec, pp::Tensor y) {
            if (ec) return fail(ec);
            st[s].busy = false;
            if (s + 1 < pipe.num_stages()) {
              st[s + 1].forwards.push_back({mb, std::move(y)});
              kick(s + 1);
            } else {
              st[s].backwards.push_back({mb, pipe.loss_gradient(st[s].step, mb, y)});
            }
            kick(s);
          });
    }
  }

  // Every backward of the step is done on stage s: its optimizer step, then the next step.
  void optimize(int s) {
    st[s].busy = true;
    pipe.stage(s).async_optimizer_step([this, s](error_code ec) {
      if (ec) return fail(ec);
      StageState& me = st[s];
      me.busy = false;
      me.backwards_done = me.next_input = 0;
      if (++me.step == pipe.steps() && ++stages_finished == pipe.num_stages()) {
        finished.try_send(error_code{});
      }
      kick(s);
    });
  }

  void fail(error_code ec) { finished.try_send(ec); }
};

asio::awaitable<void> train(pp::Pipeline& pipe) {
  Finished finished(co_await asio::this_coro::executor, 1);
  Run run{pipe, finished, std::vector<StageState>(pipe.num_stages())};
  for (int s = 0; s < pipe.num_stages(); ++s) run.kick(s);
  co_await finished.async_receive(asio::use_awaitable);  // throws the first error, if any
}

OVERLAP_TRAIN(train)
