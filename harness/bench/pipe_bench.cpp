// The cost of one lock-step round of the judge/submission protocol: a frame to another process
// over a pipe and one back, through FrameWriter and FrameReader. Prints microseconds per round
// trip with the two processes left to the scheduler, and with both pinned to one CPU.
//   overlap-pipe-bench [rounds]
#include <sched.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <string>

#include "../protocol/pipe.hpp"

using namespace overlap::protocol;

namespace {

void pin_to_cpu0() {
  cpu_set_t cpus;
  CPU_ZERO(&cpus);
  CPU_SET(0, &cpus);
  ::sched_setaffinity(0, sizeof cpus, &cpus);
}

double microseconds_per_round(int rounds, bool pinned) {
  int down[2], up[2];
  if (::pipe(down) != 0 || ::pipe(up) != 0) std::exit(1);
  const auto deadline = Clock::now() + std::chrono::minutes(1);
  const pid_t child = ::fork();
  if (child == 0) {  // echoes every frame back
    if (pinned) pin_to_cpu0();
    ::close(down[1]), ::close(up[0]);  // so that the parent's close ends the loop
    FrameReader in(down[0], std::size_t(1) << 40);
    FrameWriter out(up[1]);
    std::string body;
    while (in.next(deadline, body) == Io::done) {
      Writer echo(Reader(body).type());
      out.write(echo.integer(Reader(body).type()).frame(), deadline);
    }
    ::_exit(0);
  }
  if (pinned) pin_to_cpu0();
  ::close(down[0]), ::close(up[1]);
  FrameWriter out(down[1]);
  FrameReader in(up[0], std::size_t(1) << 40);
  std::string body;
  const auto start = Clock::now();
  for (int i = 0; i < rounds; ++i) {
    out.write(Writer(1).integer(i).frame(), deadline);
    if (in.next(deadline, body) != Io::done) std::exit(1);
  }
  const double seconds = std::chrono::duration<double>(Clock::now() - start).count();
  ::close(down[1]);
  ::waitpid(child, nullptr, 0);
  ::close(up[0]);
  cpu_set_t all;
  CPU_ZERO(&all);
  for (int c = 0; c < CPU_SETSIZE; ++c) CPU_SET(c, &all);
  ::sched_setaffinity(0, sizeof all, &all);
  return seconds * 1e6 / rounds;
}

}  // namespace

int main(int argc, char** argv) {
  ::signal(SIGPIPE, SIG_IGN);
  const int rounds = argc > 1 ? std::atoi(argv[1]) : 100000;
  std::printf("round trip, free to move:     %.2f us\n", microseconds_per_round(rounds, false));
  std::printf("round trip, both on one CPU:  %.2f us\n", microseconds_per_round(rounds, true));
}
