// The channel between the judge and a submission program: frames through rings in shared memory
// both ways and across processes (a batch larger than a ring included), a sleeping side woken,
// a peer's end seen after what it left is read, deadlines, and a peer that scribbles on the
// shared memory or writes on the pipe: a ProtocolError or a frame read as such, never a read
// outside the rings.
#include "../../protocol/channel.hpp"

#include <signal.h>
#include <sys/time.h>
#include <sys/wait.h>
#include <unistd.h>

#include <boost/test/unit_test.hpp>
#include <string>
#include <thread>

#include "../../protocol/alarm.hpp"
#include "../../protocol/frames.hpp"

using namespace overlap::protocol;
using namespace std::chrono_literals;

namespace {

// The judge's end of a connection, and what a program (a forked child) needs for the other.
struct Connection {
  SharedRegion region;
  int to_program[2];
  int to_judge[2];
  Connection() {
    BOOST_REQUIRE(::pipe(to_program) == 0);
    BOOST_REQUIRE(::pipe(to_judge) == 0);
  }
  ~Connection() {
    for (int fd : {to_program[0], to_program[1], to_judge[0], to_judge[1]}) {
      if (fd >= 0) ::close(fd);
    }
  }
  Channel judge() { return Channel(region, Side::judge, to_judge[0], to_program[1], 1u << 30); }
  // In a forked child: the program's end, as the client makes it (the memory mapped anew), and
  // the judge's ends of the pipes closed, so that the judge sees this process's end.
  Channel program(SharedRegion& mapped) {
    ::close(to_judge[0]), ::close(to_program[1]);
    return Channel(mapped, Side::program, to_program[0], to_judge[1], 1u << 30);
  }
  // In the parent, once the child has its copies: the program's ends of the pipes closed.
  void forked() {
    ::close(to_program[0]), ::close(to_judge[1]);
    to_program[0] = to_judge[1] = -1;
  }
  // The judge's end, as the program sees it: its pipe closed.
  void judge_ends() {
    ::close(to_program[1]);
    to_program[1] = -1;
  }
};

Clock::time_point soon() { return Clock::now() + 10s; }

std::string frame(std::uint16_t type, std::int64_t value, std::size_t padding = 0) {
  return std::string(Writer(type).integer(value).text(std::string(padding, 'p')).frame());
}

int exit_status(pid_t child) {
  int status = 0;
  while (::waitpid(child, &status, 0) < 0 && errno == EINTR) {
  }
  return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

// A child that echoes every frame it gets (its type + 1), until the judge's end.
pid_t echo_program(Connection& c) {
  const pid_t child = ::fork();
  if (child == 0) {
    SharedRegion mapped(::dup(c.region.fd()));
    Channel program = c.program(mapped);
    std::string body;
    while (program.next(soon(), body) == Io::done) {
      Reader r(body);
      const std::int64_t value = r.integer();
      if (program.write(frame(r.type() + 1, value, r.text().size()), soon()) != Io::done) {
        ::_exit(2);
      }
    }
    ::_exit(0);
  }
  c.forked();
  return child;
}

}  // namespace

BOOST_AUTO_TEST_SUITE(channel)

BOOST_AUTO_TEST_CASE(frames_cross_in_order_both_ways_a_batch_larger_than_a_ring_too) {
  Connection c;
  const pid_t child = echo_program(c);
  Channel judge = c.judge();
  std::string body;
  // Lock-step turns, then one batch of five rings' worth: each side reads as it goes.
  for (int i = 0; i < 1000; ++i) {
    BOOST_REQUIRE((judge.write(frame(1, i, i % 100), soon()) == Io::done));
    BOOST_REQUIRE((judge.next(soon(), body) == Io::done));
    Reader r(body);
    BOOST_REQUIRE(r.type() == 2);
    BOOST_REQUIRE(r.integer() == i);
  }
  std::string batch;
  constexpr int kFrames = 5000;
  for (int i = 0; i < kFrames; ++i) batch += frame(3, i, 1000);
  BOOST_REQUIRE(batch.size() > 4 * SharedRegion::kRingBytes);
  // Reading and writing a channel at once, one thread each, as the client's threads may.
  std::thread reader([&] {
    std::string echoed;
    for (int i = 0; i < kFrames; ++i) {
      BOOST_REQUIRE((judge.next(soon(), echoed) == Io::done));
      Reader r(echoed);
      BOOST_REQUIRE(r.type() == 4);
      BOOST_REQUIRE(r.integer() == i);
      BOOST_REQUIRE(r.text().size() == 1000u);
    }
  });
  BOOST_TEST((judge.write(batch, soon()) == Io::done));
  reader.join();
  c.judge_ends();  // the program sees it, and exits
  BOOST_TEST(exit_status(child) == 0);
}

BOOST_AUTO_TEST_CASE(a_side_asleep_on_its_pipe_is_woken_by_the_other_sides_frame) {
  Connection c;
  const pid_t child = echo_program(c);
  Channel judge = c.judge();
  std::string body;
  for (int i = 0; i < 20; ++i) {
    // Past its spin, the program says it sleeps on its pipe: waited for, not assumed of a sleep.
    const auto deadline = Clock::now() + 10s;
    while (c.region.header().program_asleep.load() != 1 && Clock::now() < deadline) {
      std::this_thread::sleep_for(100us);
    }
    BOOST_REQUIRE(c.region.header().program_asleep.load() == 1);
    const auto sent = Clock::now();
    BOOST_REQUIRE((judge.write(frame(1, i), soon()) == Io::done));
    BOOST_REQUIRE((judge.next(soon(), body) == Io::done));
    BOOST_TEST((Clock::now() - sent < 1s));  // woken, not timed out
    BOOST_TEST(Reader(body).integer() == i);
  }
  c.judge_ends();
  BOOST_TEST(exit_status(child) == 0);
}

BOOST_AUTO_TEST_CASE(a_peer_that_ends_is_closed_after_what_it_left_is_read) {
  Connection c;
  const pid_t child = ::fork();
  if (child == 0) {
    SharedRegion mapped(::dup(c.region.fd()));
    Channel program = c.program(mapped);
    program.write(frame(18, 0) + frame(20, 0), soon());
    ::_exit(0);
  }
  c.forked();
  BOOST_TEST(exit_status(child) == 0);
  Channel judge = c.judge();
  std::string body;
  BOOST_REQUIRE((judge.next(soon(), body) == Io::done));
  BOOST_TEST(Reader(body).type() == 18);
  BOOST_REQUIRE((judge.next(soon(), body) == Io::done));
  BOOST_TEST(Reader(body).type() == 20);
  BOOST_TEST((judge.next(soon(), body) == Io::closed));
}

BOOST_AUTO_TEST_CASE(a_stream_that_ends_inside_a_message_is_an_error_not_an_end) {
  Connection c;
  {
    Channel program(c.region, Side::program, c.to_program[0], c.to_judge[1], 1u << 30);
    program.write(frame(18, 0).substr(0, 7), soon());
  }
  ::close(c.to_judge[1]);
  c.to_judge[1] = -1;
  Channel judge = c.judge();
  std::string body;
  BOOST_CHECK_THROW(judge.next(soon(), body), ProtocolError);
}

BOOST_AUTO_TEST_CASE(every_wait_ends_at_the_alarms_deadline) {
  Connection c;
  Channel judge = c.judge();
  std::string body;
  auto deadline = Clock::now() + 50ms;
  {
    const Alarm alarm(deadline);
    BOOST_TEST((judge.next(deadline, body) == Io::timeout));  // a program that says nothing
    BOOST_TEST((Clock::now() >= deadline));
  }
  // A program that never reads: the ring fills, and the judge gives up at the deadline.
  deadline = Clock::now() + 50ms;
  const Alarm alarm(deadline);
  BOOST_TEST(
      (judge.write(std::string(2 * SharedRegion::kRingBytes, 'x'), deadline) == Io::timeout));
  BOOST_TEST((Clock::now() >= deadline));
}

BOOST_AUTO_TEST_CASE(a_full_ring_whose_reader_is_gone_is_closed_not_a_wait_to_the_deadline) {
  Connection c;
  ::close(c.to_judge[1]);  // the program's end of its pipe: the program is gone
  c.to_judge[1] = -1;
  Channel judge = c.judge();
  const auto start = Clock::now();
  BOOST_TEST((judge.write(std::string(2 * SharedRegion::kRingBytes, 'x'), soon()) == Io::closed));
  BOOST_TEST((Clock::now() - start < 5s));
}

BOOST_AUTO_TEST_CASE(frames_on_the_pipe_are_read_and_wake_ups_are_not) {
  Connection c;
  const std::string wake(Writer(static_cast<std::uint16_t>(Frame::wake)).frame());
  const std::string on_pipe = wake + frame(18, 7) + wake + wake + frame(20, 8) + wake;
  BOOST_REQUIRE(::write(c.to_judge[1], on_pipe.data(), on_pipe.size()) ==
                static_cast<ssize_t>(on_pipe.size()));
  Channel judge = c.judge();
  std::string body;
  BOOST_REQUIRE((judge.next(soon(), body) == Io::done));
  BOOST_TEST(Reader(body).type() == 18);
  BOOST_REQUIRE((judge.next(soon(), body) == Io::done));
  BOOST_TEST(Reader(body).type() == 20);
  const auto deadline = Clock::now() + 50ms;
  const Alarm alarm(deadline);
  BOOST_TEST((judge.next(deadline, body) == Io::timeout));
  // Bytes on the pipe that are not frames of the protocol are an error, as on the ring.
  const std::string junk(8, '\x7f');
  BOOST_REQUIRE(::write(c.to_judge[1], junk.data(), junk.size()) == 8);
  BOOST_CHECK_THROW(judge.next(soon(), body), ProtocolError);
}

BOOST_AUTO_TEST_CASE(positions_a_peer_garbled_are_a_protocol_error_never_a_read_outside) {
  Connection c;
  Channel judge = c.judge();
  std::string body;
  SharedHeader& h = c.region.header();
  auto says = [&](auto act, const std::string& why) {
    try {
      act();
      BOOST_ERROR("no ProtocolError, expected: " << why);
    } catch (const ProtocolError& e) {
      BOOST_TEST(std::string(e.what()).find(why) != std::string::npos, e.what());
    }
  };
  // More bytes than the ring holds, then a position that went backwards.
  h.to_judge.written = SharedRegion::kRingBytes + 1;
  says([&] { judge.next(soon(), body); }, "write position is 1048577, after 0 bytes were read");
  Channel judge_again = c.judge();
  h.to_judge.written = std::uint64_t(-5);
  says([&] { judge_again.next(soon(), body); }, "write position is 18446744073709551611");
  // The reader of the judge's ring claims to have read what was never written.
  h.to_program.taken = 100;
  says([&] { judge.write(frame(2, 0), soon()); }, "read position is 100, after 0 bytes");
}

BOOST_AUTO_TEST_CASE(signals_that_interrupt_both_sides_lose_nothing) {
  struct sigaction action {};
  action.sa_handler = [](int) {};
  ::sigaction(SIGALRM, &action, nullptr);
  const itimerval every{{0, 20}, {0, 20}};
  Connection c;
  const pid_t child = ::fork();
  if (child == 0) {
    ::setitimer(ITIMER_REAL, &every, nullptr);
    SharedRegion mapped(::dup(c.region.fd()));
    Channel program = c.program(mapped);
    std::string body;
    while (program.next(soon(), body) == Io::done) {
      if (program.write(frame(2, Reader(body).integer()), soon()) != Io::done) ::_exit(2);
    }
    ::_exit(0);
  }
  c.forked();
  ::setitimer(ITIMER_REAL, &every, nullptr);
  Channel judge = c.judge();
  std::string body;
  int echoed = 0;
  for (int i = 0; i < 20000; ++i) {
    if (judge.write(frame(1, i), soon()) != Io::done || judge.next(soon(), body) != Io::done) break;
    if (Reader(body).integer() != i) break;
    ++echoed;
  }
  const itimerval off{};
  ::setitimer(ITIMER_REAL, &off, nullptr);
  c.judge_ends();
  BOOST_TEST(echoed == 20000);
  BOOST_TEST(exit_status(child) == 0);
}

BOOST_AUTO_TEST_SUITE_END()
