// The submission program's end of the protocol (protocol/frames.hpp): the one io_context the
// submission runs on, the calls it has made and not yet seen complete, and the lock-step loop.
// Every public operation is a call sent to the judge; its handler is posted when the judge's
// completion arrives, never before, so what the submission sees is what the judge decided.
#pragma once

#include <atomic>
#include <boost/asio/executor_work_guard.hpp>
#include <boost/asio/io_context.hpp>
#include <boost/system/error_code.hpp>
#include <cstdint>
#include <deque>
#include <exception>
#include <functional>
#include <memory>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

#include "../protocol/channel.hpp"
#include "../protocol/frames.hpp"
#include "../protocol/message.hpp"

namespace overlap::client {

// A call waiting for its completion: decodes the results and posts the submission's handler.
class Pending {
 public:
  virtual ~Pending() = default;
  virtual void complete(boost::system::error_code ec, protocol::Reader& results) = 0;
};

class Connection {
 public:
  // The judge's pipes: it reads what we write on kToJudge and writes what we read on kFromJudge;
  // and the memory of the rings between us (protocol/channel.hpp), mapped, then closed.
  static constexpr int kFromJudge = 3;
  static constexpr int kToJudge = 4;
  static constexpr int kSharedMemory = 6;

  // The process's one connection; the first use (the launcher's, before it loads the
  // submission) maps the shared memory and reads the judge's hello.
  static Connection& get();

  boost::asio::io_context& io() { return io_; }
  // The hello's exercise parameters, read by the exercise's client in order.
  protocol::Reader& hello() { return *hello_; }

  // A call frame for operation `op`, to which the caller appends the arguments.
  protocol::Writer request(std::uint16_t op);
  // Sends a call whose completion the judge will send (`pending` gets it), or, for a call that
  // is done at once (`pending` null), none. Returns the call's number: the handle of what it
  // makes.
  std::int64_t send(const protocol::Writer& call, std::unique_ptr<Pending> pending);
  std::int64_t next_number() const { return calls_ + 1; }
  // The submission cancelled call `number`: the judge ends it, if it is still running.
  void cancel(std::int64_t number);

  // The exercise's values read for free, refreshed from every `state` frame.
  void on_state(std::function<void(protocol::Reader&)> apply) { on_state_ = std::move(apply); }
  // Error categories completions may name, beside overlap's and the system's.
  void add_category(const boost::system::error_category& category);

  // Reports an actor's end: train returned, or threw `error`.
  void actor_done(int actor, std::exception_ptr error);
  // Runs the lock-step loop until the judge ends the run. Does not return.
  [[noreturn]] void serve();

  // Throws system_error(errc::misuse) unless called from the thread that runs the submission;
  // the judge hears of the first such call (a `misuse` in the report).
  void check_thread(const char* operation);

 private:
  Connection();
  void receive_batch();
  std::size_t run_ready();  // the handlers it ran
  // Until no other thread of the submission can act, or it misused them (the run ends).
  void wait_for_other_threads();
  void run_until_idle();  // until no handler is ready and no other thread can act
  void flush();
  // Sends what is pending and `misuse` (the judge ends the run with it), then waits for the end.
  [[noreturn]] void end_with(const protocol::Writer& misuse);
  [[noreturn]] void wait_for_end();
  [[noreturn]] void leave();

  boost::asio::io_context io_{1};
  // The client's own work: the context never runs out of work, so stopped() after a poll means
  // the submission called stop(), never that nothing is pending.
  boost::asio::executor_work_guard<boost::asio::io_context::executor_type> work_;
  protocol::SharedRegion shared_;
  protocol::Channel judge_;
  std::string hello_body_;
  std::unique_ptr<protocol::Reader> hello_;
  std::string out_;
  std::int64_t calls_ = 0;
  // Call n's completion at n - 1 (null once completed, or for a call done at once): no search
  // and no allocation beyond the Pending per call.
  std::deque<std::unique_ptr<Pending>> pending_;
  std::function<void(protocol::Reader&)> on_state_;
  std::vector<const boost::system::error_category*> categories_;
  std::thread::id owner_;
  std::mutex write_mutex_;  // the owner's batches and a foreign thread's one frame
  std::atomic<bool> foreign_call_told_{false};
  bool told_busy_ = false;  // the judge heard, in this batch, that it waits for other threads
};

// What an exception says, for the report: a system_error with its prefix, others their what().
std::string describe(std::exception_ptr error);

}  // namespace overlap::client
