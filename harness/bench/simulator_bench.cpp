// How many simulated operations the core sustains per second of real time (DESIGN.md asks for
// at least a million). Prints figures; not a test: real time varies with the machine's load.
//   build/harness/bench/overlap-simulator-bench [operations]
#include <fmt/format.h>

#include <boost/asio.hpp>
#include <chrono>
#include <cstdlib>
#include <vector>

#include "../sim/operation.hpp"

namespace asio = boost::asio;
using namespace overlap::sim;

namespace {

template <typename Token>
auto async_work(Simulator& sim, Device& device, Token&& token) {
  return asio::async_initiate<Token, void(boost::system::error_code)>(
      [&sim, &device](auto handler) {
        Operation<>::start(sim, device, {"work", "", 'W'}, from_ms(1), std::move(handler), {});
      },
      token);
}

// One coroutine per device, each running its share of the operations back to back.
asio::awaitable<void> device_loop(Simulator& sim, Device& device, long operations) {
  for (long i = 0; i < operations; ++i) co_await async_work(sim, device, asio::use_awaitable);
}

}  // namespace

int main(int argc, char** argv) {
  const long operations = argc > 1 ? std::atol(argv[1]) : 1'000'000;
  constexpr int kDevices = 4;
  Simulator sim;
  sim.set_limits(from_ms(1e12), 1ULL << 40);
  std::vector<Device*> devices;
  for (int d = 0; d < kDevices; ++d) devices.push_back(&sim.add_device(fmt::format("d{}", d)));
  int finished = 0;
  const auto start = std::chrono::steady_clock::now();
  for (Device* device : devices) {
    asio::co_spawn(sim.io(), device_loop(sim, *device, operations / kDevices),
                   [&](std::exception_ptr) { ++finished; });
  }
  sim.run([&] { return finished == kDevices; });
  const double seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  const auto done = sim.timeline().ops.size();
  fmt::print(
      "{} operations on {} devices, {:g} ms of virtual time, in {:.3f} s: {:.2f} million "
      "operations per second\n",
      done, kDevices, to_ms(sim.finish_time()), seconds, done / seconds / 1e6);
  return done == static_cast<std::size_t>(operations / kDevices * kDevices) ? 0 : 1;
}
