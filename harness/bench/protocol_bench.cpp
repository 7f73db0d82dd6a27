// The simulator benchmark's shape (4 devices, a 1 ms operation on each per instant) through the
// judge/submission protocol: a judge here, its client a submission of its own
// (protocol_bench_client.cpp, run by a launcher, sandbox included), in lock-step through the
// channel the grader uses (protocol/channel.hpp). Prints simulated operations per second of real
// time, with both processes free to run anywhere (as the grader runs them) and with both pinned
// to one CPU.
//   build/harness/overlap-protocol-bench [operations]
#include <fmt/format.h>
#include <sched.h>
#include <signal.h>
#include <unistd.h>

#include <chrono>
#include <cstdlib>
#include <string>
#include <vector>

#include "../judge/build.hpp"
#include "../judge/program.hpp"
#include "../protocol/frames.hpp"
#include "../sim/operation.hpp"
#include "../worlds/common/lock_step.hpp"
#include "protocol_bench_wire.hpp"

using namespace overlap;

namespace {

constexpr int kDevices = 4;

double run(const std::string& client, long operations) {
  sim::Simulator sim;
  sim.set_limits(sim::from_ms(1e12), 1ULL << 40);
  std::vector<sim::Device*> devices;
  for (int d = 0; d < kDevices; ++d) devices.push_back(&sim.add_device(fmt::format("d{}", d)));
  worlds::Remote remote;
  const bench::Hello told{kDevices, operations / kDevices};
  protocol::Writer hello(static_cast<std::uint16_t>(protocol::Frame::hello));
  hello.integer(protocol::kVersion).text("bench");
  protocol::write(hello, told);
  const auto start = std::chrono::steady_clock::now();
  judge::SandboxHost host(judge::launcher_of("pipeline"), true);
  judge::Program link(host, client, 600);
  const worlds::RunOutcome outcome =
      worlds::lock_step(sim, link, remote, hello,
                        {kDevices,
                         {},
                         [&](worlds::Call& call) {
                           const auto work = call.read<bench::Work, bench::ranges>(told);
                           sim::Operation<>::start(sim, *devices[work.device], {"work", "", 'W'},
                                                   sim::from_ms(1), remote.reply(call.number), {});
                         },
                         [](protocol::Writer&) {}});
  const double seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  if (!outcome.completed() || sim.timeline().ops.size() != std::size_t(operations)) {
    fmt::print(stderr, "the run did not complete: {} operations\n", sim.timeline().ops.size());
    std::exit(1);
  }
  return operations / seconds;
}

}  // namespace

int main(int argc, char** argv) {
  ::signal(SIGPIPE, SIG_IGN);
  const long operations = (argc > 1 ? std::atol(argv[1]) : 400'000) / kDevices * kDevices;
  const std::string self = argv[0];
  const std::string client =
      self.substr(0, self.rfind('/') + 1) + "liboverlap-protocol-bench-client.so";
  fmt::print("{} operations on {} devices, {} per round trip\n", operations, kDevices, kDevices);
  fmt::print("  unpinned:            {:.0f} operations per second\n", run(client, operations));
  cpu_set_t one;
  CPU_ZERO(&one);
  CPU_SET(0, &one);
  ::sched_setaffinity(0, sizeof one, &one);  // the client inherits it
  fmt::print("  both on one CPU:     {:.0f} operations per second\n", run(client, operations));
}
