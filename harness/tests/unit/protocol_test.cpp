// The judge/submission protocol's frames and pipes: round trips, every way a message can be
// malformed, caps, deadlines on both ends, a reader or writer that goes away, and signals that
// interrupt the I/O.
#include <fcntl.h>
#include <signal.h>
#include <sys/time.h>
#include <sys/wait.h>
#include <unistd.h>

#include <boost/test/unit_test.hpp>
#include <string>

#include "../../protocol/alarm.hpp"
#include "../../protocol/pipe.hpp"

using namespace overlap::protocol;
using namespace std::chrono_literals;

namespace {

struct Pipe {
  int fds[2];
  Pipe() { BOOST_REQUIRE(::pipe(fds) == 0); }
  ~Pipe() {
    close_read();
    close_write();
  }
  int read_end() const { return fds[0]; }
  int write_end() const { return fds[1]; }
  void close_read() {
    if (fds[0] >= 0) ::close(fds[0]), fds[0] = -1;
  }
  void close_write() {
    if (fds[1] >= 0) ::close(fds[1]), fds[1] = -1;
  }
};

void put(int fd, std::string_view bytes) {
  BOOST_REQUIRE(::write(fd, bytes.data(), bytes.size()) == static_cast<ssize_t>(bytes.size()));
}

std::string frame_of(std::string_view body) {
  const auto length = static_cast<std::uint32_t>(body.size());
  std::string out(reinterpret_cast<const char*>(&length), sizeof length);
  return out.append(body);
}

Clock::time_point soon() { return Clock::now() + 2s; }

}  // namespace

BOOST_AUTO_TEST_SUITE(protocol)

BOOST_AUTO_TEST_CASE(a_message_arrives_field_for_field) {
  Pipe pipe;
  FrameWriter out(pipe.write_end());
  BOOST_TEST(
      (out.write(Writer(7).integer(-42).real(0.1).text("stage 0").frame(), soon()) == Io::done));
  BOOST_TEST((out.write(Writer(8).frame(), soon()) == Io::done));
  FrameReader in(pipe.read_end(), 1 << 20);
  std::string body;
  BOOST_REQUIRE((in.next(soon(), body) == Io::done));
  Reader r(body);
  BOOST_TEST(r.type() == 7);
  BOOST_TEST(r.integer() == -42);
  BOOST_TEST(r.real() == 0.1);  // exactly: the bits travel
  BOOST_TEST(r.text() == "stage 0");
  r.end();
  BOOST_REQUIRE((in.next(soon(), body) == Io::done));
  BOOST_TEST(Reader(body).type() == 8);
  pipe.close_write();
  BOOST_TEST((in.next(soon(), body) == Io::closed));
}

BOOST_AUTO_TEST_CASE(a_malformed_message_is_a_protocol_error_that_says_why) {
  const std::string body = std::string(Writer(3).integer(5).text("x").frame().substr(4));
  auto fails = [&](auto read, const std::string& why) {
    Reader r(body);
    try {
      read(r);
      BOOST_ERROR("no ProtocolError, expected: " << why);
    } catch (const ProtocolError& e) {
      BOOST_TEST(std::string(e.what()).find(why) != std::string::npos, e.what());
    }
  };
  fails([](Reader& r) { r.real(); }, "expected a real");
  fails([](Reader& r) { r.integer(0, 4, "micro_batch"); }, "micro_batch 5 is out of range [0, 4]");
  fails([](Reader& r) { r.integer(), r.end(); }, "more fields");
  fails([](Reader& r) { r.integer(), r.text(), r.integer(); }, "cut short");
  BOOST_CHECK_THROW(Reader(std::string_view("\x01", 1)), ProtocolError);  // no whole type
  // A text that claims more bytes than its message has.
  std::string lying(Writer(3).text("abc").frame().substr(4));
  lying[3] = 100;
  BOOST_CHECK_THROW(Reader(lying).text(), ProtocolError);
  // Reals must be finite.
  BOOST_CHECK_THROW(Reader(std::string(Writer(3).real(1.0 / 0.0).frame().substr(4))).real(),
                    ProtocolError);
}

BOOST_AUTO_TEST_CASE(frames_over_the_caps_are_refused_before_they_are_read) {
  Pipe pipe;
  put(pipe.write_end(), std::string("\xff\xff\xff\x7f", 4));  // a length of 2 GiB
  FrameReader in(pipe.read_end(), 1 << 20);
  std::string body;
  BOOST_CHECK_THROW(in.next(soon(), body), ProtocolError);
  BOOST_CHECK_THROW(Writer(1).text(std::string(kMaxMessageBytes, 'x')), ProtocolError);

  Pipe small;
  FrameReader capped(small.read_end(), 64);
  put(small.write_end(), frame_of(std::string(40, 'a')));
  put(small.write_end(), frame_of(std::string(40, 'b')));
  BOOST_CHECK_THROW(while (capped.next(soon(), body) == Io::done){}, ProtocolError);
}

BOOST_AUTO_TEST_CASE(a_stream_that_ends_inside_a_message_is_an_error_not_an_end) {
  Pipe pipe;
  put(pipe.write_end(), frame_of(std::string("\x01\x00partial", 9)).substr(0, 7));
  pipe.close_write();
  FrameReader in(pipe.read_end(), 1 << 20);
  std::string body;
  BOOST_CHECK_THROW(in.next(soon(), body), ProtocolError);
}

BOOST_AUTO_TEST_CASE(every_blocking_wait_ends_at_the_alarms_deadline) {
  Pipe pipe;
  FrameReader in(pipe.read_end(), 1 << 20);
  std::string body;
  auto deadline = Clock::now() + 50ms;
  {
    const Alarm alarm(deadline);
    BOOST_TEST((in.next(deadline, body) == Io::timeout));  // a writer that says nothing
    BOOST_TEST((Clock::now() >= deadline));
  }
  // A reader that never reads: the pipe fills, and the writer gives up at the deadline.
  FrameWriter out(pipe.write_end());
  deadline = Clock::now() + 50ms;
  const Alarm alarm(deadline);
  Io io = Io::done;
  for (int i = 0; i < 100 && io == Io::done; ++i) {
    io = out.write(Writer(1).text(std::string(60000, 'x')).frame(), deadline);
  }
  BOOST_TEST((io == Io::timeout));
}

BOOST_AUTO_TEST_CASE(a_non_blocking_wait_ends_at_its_deadline_without_an_alarm) {
  Pipe pipe;
  BOOST_REQUIRE(::fcntl(pipe.read_end(), F_SETFL, O_NONBLOCK) == 0);
  FrameReader in(pipe.read_end(), 1 << 20);
  std::string body;
  const auto deadline = Clock::now() + 50ms;
  BOOST_TEST((in.next(deadline, body) == Io::timeout));
  BOOST_TEST((Clock::now() >= deadline));
}

BOOST_AUTO_TEST_CASE(a_reader_that_is_gone_is_reported_not_a_signal) {
  ::signal(SIGPIPE, SIG_IGN);
  Pipe pipe;
  pipe.close_read();
  FrameWriter out(pipe.write_end());
  BOOST_TEST((out.write(Writer(1).frame(), soon()) == Io::closed));
}

BOOST_AUTO_TEST_CASE(signals_that_interrupt_reads_and_writes_lose_nothing) {
  // A handler without SA_RESTART and a timer every 20 us, in both processes.
  struct sigaction action {};
  action.sa_handler = [](int) {};
  ::sigaction(SIGALRM, &action, nullptr);
  const itimerval every{{0, 20}, {0, 20}};
  constexpr int kMessages = 20000;
  Pipe pipe;
  const pid_t child = ::fork();
  BOOST_REQUIRE(child >= 0);
  if (child == 0) {
    ::setitimer(ITIMER_REAL, &every, nullptr);
    pipe.close_read();
    FrameWriter out(pipe.write_end());
    for (int i = 0; i < kMessages; ++i) {
      if (out.write(Writer(2).integer(i).text(std::string(i % 300, 'z')).frame(), soon()) !=
          Io::done)
        ::_exit(1);
    }
    ::_exit(0);
  }
  ::setitimer(ITIMER_REAL, &every, nullptr);
  pipe.close_write();
  FrameReader in(pipe.read_end(), 1u << 30);
  std::string body;
  int received = 0;
  while (in.next(soon(), body) == Io::done) {
    Reader r(body);
    BOOST_REQUIRE(r.integer() == received);
    BOOST_REQUIRE(r.text().size() == static_cast<std::size_t>(received % 300));
    ++received;
  }
  const itimerval off{};
  ::setitimer(ITIMER_REAL, &off, nullptr);
  int status = 0;
  while (::waitpid(child, &status, 0) < 0 && errno == EINTR) {
  }
  BOOST_TEST(received == kMessages);
  BOOST_TEST((WIFEXITED(status) && WEXITSTATUS(status) == 0));
}

BOOST_AUTO_TEST_SUITE_END()
