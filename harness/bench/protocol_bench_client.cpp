// The client of overlap-protocol-bench: one coroutine per device, each running its share of
// 1 ms operations back to back, as calls to the judge.
#include <boost/asio.hpp>

#include "../client/call.hpp"
#include "protocol_bench_wire.hpp"

namespace asio = boost::asio;
using overlap::client::Connection;

namespace {

template <typename Token>
auto async_work(int device, Token&& token) {
  return asio::async_initiate<Token, void(boost::system::error_code)>(
      [device](auto handler) {
        overlap::client::call(overlap::bench::Work{device}, overlap::Handler<>(std::move(handler)));
      },
      token);
}

asio::awaitable<void> device_loop(int device, long operations) {
  for (long i = 0; i < operations; ++i) co_await async_work(device, asio::use_awaitable);
}

}  // namespace

extern "C" [[gnu::visibility("default")]] void overlap_submission_start() {
  Connection& c = Connection::get();
  const auto hello = overlap::client::read_hello<overlap::bench::Hello>();
  const long per_device = static_cast<long>(hello.operations_per_device);
  for (int d = 0; d < hello.devices; ++d) {
    asio::co_spawn(c.io(), device_loop(d, per_device),
                   [d](std::exception_ptr e) { Connection::get().actor_done(d, e); });
  }
  c.serve();
}
