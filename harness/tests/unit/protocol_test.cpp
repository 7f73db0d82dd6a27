// The judge/submission protocol's frames and pipes: round trips, every way a message can be
// malformed, described structs as messages and their ranges, caps, deadlines on both ends, a
// reader or writer that goes away, and signals that interrupt the I/O.
#include <fcntl.h>
#include <signal.h>
#include <sys/time.h>
#include <sys/wait.h>
#include <unistd.h>

#include <boost/describe/class.hpp>
#include <boost/test/unit_test.hpp>
#include <cstdint>
#include <string>
#include <vector>

#include "../../protocol/alarm.hpp"
#include "../../protocol/described.hpp"
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

// A world's part of the protocol in small (as a wire.hpp declares it).
struct Hello {
  int stages;
  double ms;
  std::string name;
  std::vector<bool> failed;
};
BOOST_DESCRIBE_STRUCT(Hello, (), (stages, ms, name, failed))

struct Step {
  int stage, micro_batch;
  Handle input;
  std::vector<Handle> gradients;
};
BOOST_DESCRIBE_STRUCT(Step, (), (stage, micro_batch, input, gradients))

inline constexpr Range<Hello> ranges[] = {
    {"stage", "stage", 0, [](const Hello& h) { return h.stages - 1; }},
    {"micro_batch", "micro-batch"},
    {"gradients", "gradient count", 0, [](const Hello& h) { return h.stages + 1; }},
};

std::string body_of(const Writer& w) { return std::string(w.frame().substr(kHeaderBytes)); }

// The ProtocolError `read` throws contains `why`.
template <typename Read>
void fails(const std::string& body, Read read, const std::string& why) {
  Reader r(body);
  try {
    read(r);
    BOOST_ERROR("no ProtocolError, expected: " << why);
  } catch (const ProtocolError& e) {
    BOOST_TEST(std::string(e.what()).find(why) != std::string::npos, e.what());
  }
}

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

BOOST_AUTO_TEST_CASE(a_described_struct_is_its_fields_in_order_a_vector_its_length_first) {
  Writer described(16);
  write(described, Step{2, -7, Handle{5}, {Handle{1}, Handle{3}}});
  Writer by_hand(16);
  by_hand.integer(2).integer(-7).integer(5).integer(2).integer(1).integer(3);
  BOOST_TEST(described.frame() == by_hand.frame());

  const Hello hello{3, 0.25, "pipeline", {true, false}};
  Writer w(1);
  write(w, hello);
  const std::string hello_body = body_of(w);
  Reader r(hello_body);
  const Hello back = read<Hello>(r);
  r.end();
  BOOST_TEST(back.stages == 3);
  BOOST_TEST(back.ms == 0.25);
  BOOST_TEST(back.name == "pipeline");
  BOOST_TEST((back.failed == std::vector<bool>{true, false}));

  const std::string call_body = body_of(described);
  Reader call(call_body);
  const Step step = read<Step, ranges>(call, hello);
  call.end();
  BOOST_TEST(step.stage == 2);
  BOOST_TEST(step.micro_batch == -7);
  BOOST_TEST(static_cast<std::int64_t>(step.input) == 5);
  BOOST_TEST(step.gradients.size() == 2u);
  BOOST_TEST(static_cast<std::int64_t>(step.gradients[1]) == 3);
}

BOOST_AUTO_TEST_CASE(an_argument_out_of_its_bound_is_a_protocol_error_in_the_tables_words) {
  const Hello hello{3, 1, "", {}};
  auto read_step = [&hello](Reader& r) { read<Step, ranges>(r, hello); };
  auto step = [](std::int64_t stage, std::int64_t micro_batch, std::int64_t count) {
    Writer w(16);
    w.integer(stage).integer(micro_batch).integer(0).integer(count);
    for (std::int64_t i = 0; i < count && i < 8; ++i) w.integer(1);
    return body_of(w);
  };
  fails(step(3, 0, 0), read_step, "stage 3 is out of range [0, 2]");
  fails(step(-1, 0, 0), read_step, "stage -1 is out of range [0, 2]");
  fails(step(0, std::int64_t{1} << 40, 0), read_step,
        "micro-batch 1099511627776 is out of range [-2147483648, 2147483647]");
  fails(step(0, 0, 5), read_step, "gradient count 5 is out of range [0, 4]");
  fails(step(0, 0, -1), read_step, "gradient count -1 is out of range [0, 4]");
  // A length the frame does not hold ends at its end, not in an allocation of that length.
  fails(body_of(Writer(16).integer(0).integer(0).integer(0).integer(4).integer(1)), read_step,
        "cut short");
  fails(body_of(Writer(16).integer(0).real(0.5)), read_step, "expected an integer");
  fails(body_of(Writer(16).integer(0)), read_step, "cut short");
  // Read without ranges, an integer keeps to its member's type, named by the member.
  fails(
      body_of(Writer(1).integer(1).real(1).text("").integer(1).integer(2)),
      [](Reader& r) { read<Hello>(r); }, "failed 2 is out of range [0, 1]");
  fails(
      body_of(Writer(1).integer(std::int64_t{1} << 31)), [](Reader& r) { read<Hello>(r); },
      "stages 2147483648 is out of range");
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
