// The cost of one lock-step round of the judge/submission protocol: a frame to another process
// and one back, over the channel the judge uses (rings in shared memory, channel.hpp) and over
// a bare pair of pipes (FrameWriter and FrameReader), with the two processes left to the
// scheduler and with both pinned to one CPU. Prints microseconds per round trip.
//   overlap-round-trip-bench [rounds]
#include <sched.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <string>

#include "../protocol/channel.hpp"

using namespace overlap::protocol;

namespace {

void pin_to_cpu0() {
  cpu_set_t cpus;
  CPU_ZERO(&cpus);
  CPU_SET(0, &cpus);
  ::sched_setaffinity(0, sizeof cpus, &cpus);
}

void unpin() {
  cpu_set_t all;
  CPU_ZERO(&all);
  for (int c = 0; c < CPU_SETSIZE; ++c) CPU_SET(c, &all);
  ::sched_setaffinity(0, sizeof all, &all);
}

// What each end needs: a frame read, a frame written, over pipes or over the channel.
struct Pipes {
  FrameReader in;
  FrameWriter out;
  Pipes(int in_fd, int out_fd, SharedRegion&, Side) : in(in_fd, ~0ULL), out(out_fd) {}
  Io next(Clock::time_point deadline, std::string& body) { return in.next(deadline, body); }
  Io write(std::string_view frame, Clock::time_point deadline) {
    return out.write(frame, deadline);
  }
};

struct Rings {
  Channel channel;
  Rings(int in_fd, int out_fd, SharedRegion& region, Side side)
      : channel(region, side, in_fd, out_fd, ~0ULL) {}
  Io next(Clock::time_point deadline, std::string& body) { return channel.next(deadline, body); }
  Io write(std::string_view frame, Clock::time_point deadline) {
    return channel.write(frame, deadline);
  }
};

template <typename Transport>
double microseconds_per_round(int rounds, bool pinned) {
  SharedRegion region;
  int down[2], up[2];
  if (::pipe(down) != 0 || ::pipe(up) != 0) std::exit(1);
  const auto deadline = Clock::now() + std::chrono::minutes(1);
  const pid_t child = ::fork();
  if (child == 0) {  // echoes every frame back
    if (pinned) pin_to_cpu0();
    ::close(down[1]), ::close(up[0]);  // so that the parent's close ends the loop
    Transport echo(down[0], up[1], region, Side::program);
    std::string body;
    while (echo.next(deadline, body) == Io::done) {
      echo.write(Writer(Reader(body).type()).integer(1).frame(), deadline);
    }
    ::_exit(0);
  }
  if (pinned) pin_to_cpu0();
  ::close(down[0]), ::close(up[1]);
  Transport judge(up[0], down[1], region, Side::judge);
  std::string body;
  const auto start = Clock::now();
  for (int i = 0; i < rounds; ++i) {
    judge.write(Writer(1).integer(i).frame(), deadline);
    if (judge.next(deadline, body) != Io::done) std::exit(1);
  }
  const double seconds = std::chrono::duration<double>(Clock::now() - start).count();
  ::close(down[1]);
  ::waitpid(child, nullptr, 0);
  ::close(up[0]);
  unpin();
  return seconds * 1e6 / rounds;
}

}  // namespace

int main(int argc, char** argv) {
  ::signal(SIGPIPE, SIG_IGN);
  const int rounds = argc > 1 ? std::atoi(argv[1]) : 100000;
  std::printf("round trip, microseconds     free to move   both on one CPU\n");
  std::printf("  channel (shared memory)    %12.2f   %15.2f\n",
              microseconds_per_round<Rings>(rounds, false),
              microseconds_per_round<Rings>(rounds, true));
  std::printf("  pipes                      %12.2f   %15.2f\n",
              microseconds_per_round<Pipes>(rounds, false),
              microseconds_per_round<Pipes>(rounds, true));
}
