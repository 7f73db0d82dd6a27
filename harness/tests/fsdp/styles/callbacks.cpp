// Style: plain completion-handler callbacks, one state machine per rank. Each of the four
// streams runs one operation at a time; every completion handler updates the counters and calls
// pump(), which starts on each idle stream the next operation whose input is ready and whose
// buffer is free. The collectives keep one fixed order. train only waits for the end.
#include <algorithm>
#include <boost/asio.hpp>
#include <boost/asio/experimental/channel.hpp>
#include <overlap/fsdp.hpp>
#include <vector>

namespace asio = boost::asio;
namespace fsdp = overlap::fsdp;
using boost::system::error_code;
using Finished = asio::experimental::channel<void(error_code)>;

struct Streams {
  Streams(fsdp::Rank& rank, Finished& done) : r(rank), finished(done) {
    for (int l = 0; l < layers; ++l) gathers.push_back(l);
    for (int l = layers - kept - 1; l >= 0; --l) gathers.push_back(l);  // the kept stay gathered
  }
  fsdp::Rank& r;
  Finished& finished;
  const int layers = r.num_layers();
  // The last layers stay gathered from their forward to their backward, one per parameter
  // buffer: keeping fewer would let the gathers, running ahead, regather one still gathered.
  const int kept = std::min(r.param_buffers(), layers);
  std::vector<int> gathers;  // layers in the order their parameters are needed
  int copied = 0, copying = 0, gathered = 0, gathering = 0;  // done, and started
  int computed = 0, reduced = 0, reducing = 0;               // computed: forwards, then backwards
  int params = 0, grads = 0;                                 // buffers in use
  bool copy_busy = false, gather_busy = false, compute_busy = false, reduce_busy = false;

  // Runs one operation on a stream; its handler frees the stream, records, and pumps again.
  template <typename Start, typename After>
  void run(bool& busy, Start start, After after) {
    busy = true;
    start([this, &busy, after](error_code ec) {
      if (ec) return (void)finished.try_send(ec);
      busy = false;
      after();
      pump();
    });
  }

  void pump() {  // a gather may free the copy engine's next copy: gathers first
    const int n = int(gathers.size());
    if (!gather_busy && gathering < copied && params < r.param_buffers()) {
      const int l = gathers[gathering++];
      ++params;
      run(
          gather_busy, [&](auto h) { r.async_all_gather(l, h); }, [this] { ++gathered; });
    }
    if (!copy_busy && copying < n && copying <= gathering) {  // one copy ahead of the gathers
      const int l = gathers[copying++];
      run(
          copy_busy, [&](auto h) { r.async_copy_in(l, h); }, [this] { ++copied; });
    }
    if (!compute_busy && computed < layers && gathered > computed) {
      const int l = computed;
      run(
          compute_busy, [&](auto h) { r.async_forward(l, h); },
          [this, l] {
            if (l < layers - kept) release(l);
            ++computed;
          });
    } else if (!compute_busy && computed >= layers && computed < 2 * layers &&
               grads < r.grad_buffers()) {
      const int l = 2 * layers - 1 - computed;
      if (l >= layers - kept || gathered > computed - kept) {  // kept, or gathered again
        ++grads;
        run(
            compute_busy, [&](auto h) { r.async_backward(l, h); },
            [this, l] {
              release(l);
              ++computed;
            });
      }
    }
    if (!reduce_busy && reducing < computed - layers) {
      const int l = layers - 1 - reducing++;
      run(
          reduce_busy, [&](auto h) { r.async_reduce_scatter(l, h); },
          [this] {
            --grads;
            if (++reduced == layers) {
              r.async_optimizer_step([this](error_code ec) { finished.try_send(ec); });
            }
          });
    }
  }

  void release(int l) {
    r.release(l);
    --params;
  }
};

asio::awaitable<void> train(fsdp::Rank& rank) {
  Finished finished(co_await asio::this_coro::executor, 1);
  Streams streams(rank, finished);
  streams.pump();
  co_await finished.async_receive(asio::use_awaitable);
}

OVERLAP_TRAIN(train)
