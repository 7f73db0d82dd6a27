#include "connection.hpp"

#include <unistd.h>

#include <boost/asio/error.hpp>
#include <boost/asio/multiple_exceptions.hpp>
#include <boost/system/system_error.hpp>
#include <cstdio>
#include <cstdlib>
#include <iostream>
#include <limits>
#include <overlap/error.hpp>
#include <stdexcept>
#include <utility>

#include "posts.hpp"
#include "threads.hpp"

namespace overlap::client {

namespace {

using protocol::Frame;

// The judge is the kit's own program: the client trusts it not to flood, and waits for it as
// long as it takes (the judge's deadlines end a run, not the client's).
constexpr std::size_t kNoCap = std::numeric_limits<std::size_t>::max();
const auto kForever = protocol::Clock::time_point::max();

// Exception texts are cut to this length: a report shows them, a pipe carries them.
constexpr std::size_t kMaxText = 2000;

// A broken connection means the judge is gone or the kit is broken: nothing to report to.
[[noreturn]] void fail(const std::string& why) {
  std::fprintf(stderr, "overlap client: %s\n", why.c_str());
  std::fflush(stderr);
  ::_exit(70);
}

protocol::Writer frame(Frame type) { return protocol::Writer(static_cast<std::uint16_t>(type)); }

}  // namespace

std::string describe(std::exception_ptr error) {
  std::string text;
  try {
    std::rethrow_exception(error);
  } catch (const boost::asio::multiple_exceptions& e) {
    // What `a && b` throws when both sides failed: the first side's is the one worth reading.
    text = "several operations failed; the first side's: " + describe(e.first_exception());
  } catch (const boost::system::system_error& e) {
    text = std::string("system_error: ") + e.what();
  } catch (const std::exception& e) {
    text = e.what();
  } catch (...) {
    text = "an exception not derived from std::exception";
  }
  if (text.size() > kMaxText) text.resize(kMaxText);
  return text;
}

// An exception that only carries on a refused call's error (the judge reported the misuse): the
// misuse itself, or a cancellation or a group of failures it set off.
bool echoes_a_refusal(std::exception_ptr error) {
  try {
    std::rethrow_exception(error);
  } catch (const boost::asio::multiple_exceptions&) {
    return true;
  } catch (const boost::system::system_error& e) {
    return e.code() == overlap::errc::misuse || e.code() == boost::asio::error::operation_aborted;
  } catch (...) {
  }
  return false;
}

Connection& Connection::get() {
  static Connection connection;
  return connection;
}

Connection::Connection()
    : work_(io_.get_executor()),
      shared_(kSharedMemory),
      judge_(shared_, protocol::Side::program, kFromJudge, kToJudge, kNoCap),
      owner_(std::this_thread::get_id()) {
  categories_ = {&overlap::category(), &boost::system::system_category(),
                 &boost::system::generic_category()};
  if (judge_.next(kForever, hello_body_) != protocol::Io::done) fail("no hello");
  hello_ = std::make_unique<protocol::Reader>(hello_body_);
  if (hello_->type() != static_cast<std::uint16_t>(Frame::hello) ||
      hello_->integer() != protocol::kVersion) {
    fail("the judge speaks another protocol version");
  }
  hello_->text();  // the exercise's name: the program was built for it, the judge checked that
  watch_posts(io_);
  note_judge_descriptors({kFromJudge, kToJudge});
}

void Connection::add_category(const boost::system::error_category& category) {
  categories_.push_back(&category);
}

void Connection::check_thread(const char* operation) {
  if (std::this_thread::get_id() == owner_) return;
  // Told to the judge at once, from this thread, between whole batches (the lock): the owner
  // may be blocked (joining this thread) and never flush again, and this thread may die of the
  // exception. The first such call is enough for the verdict.
  if (!foreign_call_told_.exchange(true)) {
    const std::lock_guard lock(write_mutex_);
    judge_.write(frame(Frame::foreign_call).text(operation).frame(), kForever);
  }
  throw boost::system::system_error(make_error_code(errc::misuse),
                                    std::string(operation) +
                                        " was called from another thread: only the thread that "
                                        "runs train() may call the cluster");
}

protocol::Writer Connection::request(std::uint16_t op) {
  protocol::Writer w = frame(Frame::call);
  w.integer(op);
  return w;
}

std::int64_t Connection::send(const protocol::Writer& call, std::unique_ptr<Pending> pending) {
  const std::int64_t number = ++calls_;
  out_.append(call.frame());
  pending_.push_back(std::move(pending));
  return number;
}

void Connection::cancel(std::int64_t number) {
  if (number >= 1 && number <= calls_ && pending_[number - 1]) {
    out_.append(frame(Frame::cancel).integer(number).frame());
  }
}

void Connection::actor_done(int actor, std::exception_ptr error) {
  if (error) {
    out_.append(frame(Frame::threw)
                    .integer(actor)
                    .text(describe(error))
                    .integer(echoes_a_refusal(error) ? 1 : 0)
                    .frame());
  } else {
    out_.append(frame(Frame::returned).integer(actor).frame());
  }
}

std::size_t Connection::run_ready() {
  // One handler at a time, each followed by a wait for the submission's other threads: what one
  // of them posts while train's thread waits lands after what train's thread posted, never
  // between, whatever real time does. poll_one() runs nothing when nothing is ready, or when
  // the context stopped: the submission called stop() (then run on, so that a stop() can neither
  // hide work nor fake an idle client), or the context's outstanding work fell to zero, which the
  // client's own reserve (work_) rules out unless the submission called on_work_finished()
  // without on_work_started().
  std::size_t ran = 0;
  for (;;) {
    io_.restart();
    std::size_t now = 0;
    try {
      now = io_.poll_one();
    } catch (...) {
      // Thrown out of a completion handler, not out of train: the run ends with it.
      actor_done(-1, std::current_exception());
      flush();
      wait_for_end();
    }
    if (now != 0) {
      ++ran;
      wait_for_other_threads();
      continue;
    }
    if (!io_.stopped()) return ran;
    // No handler ran, so none called stop(): poll_one() found no outstanding work at all.
    end_with(frame(Frame::work_count));
  }
}

void Connection::wait_for_other_threads() {
  for (;;) {
    const OtherThreads others = read_other_threads();
    if (others.kind == OtherThreads::quiet) break;
    if (others.kind == OtherThreads::waits_on_judge) {
      end_with(frame(Frame::waits_on_judge).integer(others.thread));
    }
    if (!std::exchange(told_busy_, true)) {
      // The judge's deadline may end this wait: it says why the instant never ended.
      const std::lock_guard lock(write_mutex_);
      judge_.write(frame(Frame::threads_busy).frame(), kForever);
    }
    std::this_thread::yield();
  }
  if (posted_from_two_threads()) end_with(frame(Frame::posts_from_threads));
}

void Connection::run_until_idle() {
  // Once no other thread can act, what they posted before they blocked is ready: idle only when
  // a last look finds nothing to run.
  do {
    wait_for_other_threads();
  } while (run_ready() != 0);
}

void Connection::end_with(const protocol::Writer& misuse) {
  out_.append(misuse.frame());
  {
    const std::lock_guard lock(write_mutex_);
    judge_.write(out_, kForever);
  }
  wait_for_end();
}

void Connection::flush() {
  out_.append(frame(Frame::idle).frame());
  const std::lock_guard lock(write_mutex_);
  if (judge_.write(out_, kForever) != protocol::Io::done) leave();
  out_.clear();
  told_busy_ = false;
}

void Connection::receive_batch() {
  std::string body;
  for (;;) {
    if (judge_.next(kForever, body) != protocol::Io::done) leave();
    protocol::Reader frame(body);
    switch (static_cast<Frame>(frame.type())) {
      case Frame::completion: {
        const std::int64_t number = frame.integer();
        const std::string category = frame.text();
        const int value = static_cast<int>(frame.integer());
        boost::system::error_code ec;
        if (value != 0) {
          const boost::system::error_category* found = nullptr;
          for (const auto* c : categories_) {
            if (category == c->name()) found = c;
          }
          if (!found) fail("a completion with an unknown error category " + category);
          ec.assign(value, *found);
        }
        if (number < 1 || number > calls_ || !pending_[number - 1]) {
          fail("a completion of a call not in flight");
        }
        std::unique_ptr<Pending> call = std::move(pending_[number - 1]);
        call->complete(ec, frame);
        break;
      }
      case Frame::state:
        if (on_state_) on_state_(frame);
        break;
      case Frame::go:
        return;
      case Frame::settle:
        return;  // the serve loop answers, once the submission's other threads are quiet
      case Frame::end:
        leave();
      default:
        fail("an unexpected frame from the judge");
    }
  }
}

void Connection::wait_for_end() {
  for (;;) receive_batch();
}

void Connection::leave() {
  std::cout.flush();
  std::fflush(nullptr);
  ::_exit(0);
}

void Connection::serve() {
  try {
    for (;;) {
      run_until_idle();
      flush();
      receive_batch();
    }
  } catch (const protocol::ProtocolError& e) {
    fail(e.what());
  }
}

}  // namespace overlap::client
