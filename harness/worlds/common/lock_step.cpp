#include "lock_step.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cctype>
#include <utility>
#include <vector>

#include "../../protocol/alarm.hpp"
#include "../../protocol/frames.hpp"
#include "../../protocol/text.hpp"

namespace overlap::worlds {

namespace {

using protocol::Frame;
using protocol::ProtocolError;

// Every call may leave an object in the judge's memory (a tensor, a gradient): a run gets this
// many, hundreds of times what an honest one makes, so a flood cannot exhaust the judge.
constexpr std::int64_t kMaxCalls = 1'000'000;

// The program went past a limit of the run, not against the protocol.
struct OverLimit {
  std::string message;
};

class Run {
 public:
  Run(sim::Simulator& sim, Link& link, Remote& remote, const LockStep& world)
      : sim_(sim), link_(link), remote_(remote), world_(world), returned_(world.actors, false) {
    sim_.set_deadline(protocol::Alarm::rung());
  }

  RunOutcome go(const protocol::Writer& hello) {
    try {
      if (!send(hello.frame())) return outcome_;
      for (;;) {
        if (!receive_batch()) return outcome_;
        if (outcome_.thrown) return end();
        sim_.run_ready();
        bool settle = false;
        while (!remote_.has_batch() && !settle) {
          if (auto stop = sim_.advance()) {
            // Nothing can happen, as far as the client said: unless it has said nothing since
            // the last time, ask it to answer once its own threads are quiet, so that a call
            // from one of them is never lost to a race with the verdict.
            settle = *stop == sim::RunEnd::deadlock && requests_ != requests_at_settle_;
            if (settle) break;
            // After train returned, nothing left to happen is the end it should have.
            const bool quiet = outcome_.returned && *stop == sim::RunEnd::deadlock;
            outcome_.end = quiet ? sim::RunEnd::finished : *stop;
            return end();
          }
          sim_.run_ready();
        }
        if (sim_.out_of_time()) return out_of_time();
        if (settle) {
          requests_at_settle_ = requests_;
          if (!send(protocol::Writer(static_cast<std::uint16_t>(Frame::settle)).frame())) {
            return outcome_;
          }
        } else if (!send_batch()) {
          return outcome_;
        }
      }
    } catch (const OverLimit& e) {
      outcome_.failure = {{"time-limit", e.message}};
      return outcome_;
    } catch (const ProtocolError& e) {
      outcome_.failure = {{"protocol", fmt::format("the submission program broke the "
                                                   "protocol: {}",
                                                   e.what())}};
      return outcome_;
    }
  }

 private:
  bool ok(Link::Status status) {
    if (status == Link::Status::ok) return true;
    outcome_.failure = link_.ended(status);
    if (calls_ == 0 && outcome_.failure->first == "crash") {
      // Nothing of the schedule to look at: say where to look instead.
      std::string& message = outcome_.failure->second;
      message += message.ends_with('?') ? " " : ". ";
      message +=
          "It ended before its first call to the cluster (in a static constructor, or in train "
          "before it called): `./overlap grade <exercise> --gdb --scenario <name>` stops where "
          "it happened";
    }
    return false;
  }
  bool send(std::string_view frames) { return ok(link_.send(frames)); }

  bool send_batch() {
    protocol::Writer state(static_cast<std::uint16_t>(Frame::state));
    world_.state(state);
    std::string batch(state.frame());
    batch += remote_.take_batch();
    batch += protocol::Writer(static_cast<std::uint16_t>(Frame::go)).frame();
    return send(batch);
  }

  // The real-time deadline passed while the judge was still at work on the submission's
  // requests: the run ends here, however much is left to apply.
  RunOutcome out_of_time() {
    outcome_.end = sim::RunEnd::out_of_time;
    return outcome_;
  }

  RunOutcome end() {
    link_.send(protocol::Writer(static_cast<std::uint16_t>(Frame::end)).frame());
    return outcome_;
  }

  // Applies the client's requests, in order, up to its `idle`; false when the run is over.
  bool receive_batch() {
    std::string body;
    for (;;) {
      if (sim_.out_of_time()) {
        out_of_time();
        return false;
      }
      if (const Link::Status status = link_.receive(body); !ok(status)) {
        if (status == Link::Status::timeout && threads_busy_) {
          outcome_.failure->second =
              "the instant never ended: a thread of the submission never blocked until the "
              "real-time limit (it kept running, or waited with a timeout). Train's thread goes "
              "on only once every other thread waits, with no timeout, on train's thread or on "
              "the cluster";
        }
        return false;
      }
      protocol::Reader frame(body);
      const auto type = static_cast<Frame>(frame.type());
      if (type != Frame::idle && type != Frame::threads_busy) ++requests_;
      switch (type) {
        case Frame::call: {
          if (calls_ == kMaxCalls) {
            throw OverLimit{
                fmt::format("more than {} calls in one run: a loop that keeps calling "
                            "without waiting on the cluster?",
                            kMaxCalls)};
          }
          Call call{++calls_,
                    static_cast<std::uint16_t>(frame.integer(0, 0xffff, "operation code")), frame};
          const std::size_t operations = sim_.timeline().ops.size();
          world_.serve(call);
          if (outcome_.returned && sim_.timeline().ops.size() == operations) called_late(call);
          break;
        }
        case Frame::cancel:
          remote_.cancel(frame.integer(1, calls_, "cancelled call"));
          break;
        case Frame::returned: {
          const auto actor = frame.integer(0, world_.actors - 1, "actor");
          if (returned_[actor]) throw ProtocolError(fmt::format("actor {} returned twice", actor));
          returned_[actor] = true;
          if (++returned_count_ == world_.actors) mark_returned();
          break;
        }
        case Frame::threw: {
          const auto actor = static_cast<int>(frame.integer(-1, world_.actors - 1, "actor"));
          std::string what = protocol::escape_control(frame.text());
          const bool echo = frame.integer(0, 1, "echo") == 1;
          if (!outcome_.thrown) outcome_.thrown = Thrown{actor, std::move(what), echo};
          break;
        }
        case Frame::foreign_call:
          foreign_call(frame.text());
          break;
        case Frame::threads_busy:
          threads_busy_ = true;
          break;
        case Frame::work_count:
          frame.end();
          return seen_misuse(
              "the submission's outstanding work on the client's io_context fell below the "
              "client's own reserve: on_work_finished() without a matching on_work_started() "
              "breaks Asio's executor contract (the context would stop with work pending)");
        case Frame::posts_from_threads:
          frame.end();
          return seen_misuse(
              "two or more threads of the submission's own posted to train's context "
              "at once (after one handler of train's thread): the order of their handlers, and "
              "of the calls those make, would be real time's. Hand other threads one piece of "
              "work a handler, or post back from one thread (a pool of one thread)");
        case Frame::waits_on_judge: {
          const auto thread = frame.integer(1, 1 << 20, "thread");
          frame.end();
          return seen_misuse(fmt::format(
              "thread {} of the submission waits on the judge's descriptor: the "
              "judge's frames would wake it in real time. A submission's threads wait on each "
              "other or on train's thread, never on the connection to the judge",
              thread));
        }
        case Frame::idle:
          frame.end();
          threads_busy_ = false;
          return true;
        default:
          throw ProtocolError(fmt::format("a frame of unknown type {}", frame.type()));
      }
      frame.end();
    }
  }

  // A misuse the client saw and ended the instant with: the run ends here (the client waits
  // for `end`).
  bool seen_misuse(std::string message) {
    outcome_.failure = {{"misuse", std::move(message)}};
    end();
    return false;
  }

  // The last actor's `returned`, in its place among the requests: the makespan ends here, and
  // every call after it, in this batch or a later one, is work begun after the return. What the
  // submission left running goes on, simulated and checked, until nothing more can happen.
  void mark_returned() {
    sim_.finish_now();
    outcome_.returned = true;
    outcome_.returned_at = sim_.now();
    outcome_.ops_at_return = sim_.timeline().ops.size();
  }

  // A call after the return that began no operation (those that did are each reported by
  // add_unfinished_work): the first one is named.
  void called_late(const Call& call) {
    if (outcome_.late_call) return;
    const std::string_view name =
        call.op < world_.operations.size() ? world_.operations[call.op].name : "a call";
    outcome_.late_call = {std::string(name), sim_.now()};
  }

  // The submission called the cluster from a thread of its own (the client refused the call).
  void foreign_call(const std::string& operation) {
    const bool a_name =
        !operation.empty() && operation.size() <= 64 &&
        std::all_of(operation.begin(), operation.end(), [](char c) {
          return std::isalnum(static_cast<unsigned char>(c)) || c == '_' || c == ':';
        });
    if (!a_name) throw ProtocolError("a foreign call frame without an operation's name");
    if (std::exchange(foreign_call_seen_, true)) return;
    sim_.violations().add(
        "misuse",
        fmt::format("{} was called from a thread other than the one that runs train(): only "
                    "that thread may call the cluster (a std::thread, or a coroutine or handler "
                    "moved to another executor?)",
                    operation),
        sim_.now());
  }

  sim::Simulator& sim_;
  Link& link_;
  Remote& remote_;
  const LockStep& world_;
  RunOutcome outcome_;
  std::int64_t calls_ = 0;
  std::vector<bool> returned_;
  int returned_count_ = 0;
  bool foreign_call_seen_ = false;
  bool threads_busy_ = false;  // the client waits, in this batch, for a thread of the submission
  std::int64_t requests_ = 0;  // frames the client sent, idle and threads_busy aside
  std::int64_t requests_at_settle_ = -1;  // requests_ when the judge last asked it to settle
};

}  // namespace

RunOutcome lock_step(sim::Simulator& sim, Link& link, Remote& remote, const protocol::Writer& hello,
                     const LockStep& world) {
  return Run(sim, link, remote, world).go(hello);
}

}  // namespace overlap::worlds
