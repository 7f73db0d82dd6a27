#include "lock_step.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cctype>
#include <utility>
#include <vector>

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
      : sim_(sim), link_(link), remote_(remote), world_(world), returned_(world.actors, false) {}

  RunOutcome go(const protocol::Writer& hello) {
    try {
      if (!send(hello.frame())) return outcome_;
      for (;;) {
        if (!receive_batch()) return outcome_;
        if (outcome_.thrown) return end();
        sim_.run_ready();
        if (returned_count_ == world_.actors && !outcome_.returned) {
          // The makespan ends here; whatever the submission left running goes on, simulated
          // and checked, until nothing more can happen (unfinished work is a violation).
          sim_.finish_now();
          outcome_.returned = true;
          outcome_.returned_at = sim_.now();
          outcome_.ops_at_return = sim_.timeline().ops.size();
        }
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

  RunOutcome end() {
    link_.send(protocol::Writer(static_cast<std::uint16_t>(Frame::end)).frame());
    return outcome_;
  }

  // Applies the client's requests, in order, up to its `idle`.
  bool receive_batch() {
    std::string body;
    for (;;) {
      if (!ok(link_.receive(body))) return false;
      protocol::Reader frame(body);
      if (frame.type() != static_cast<std::uint16_t>(Frame::idle)) ++requests_;
      switch (static_cast<Frame>(frame.type())) {
        case Frame::call: {
          if (calls_ == kMaxCalls) {
            throw OverLimit{
                fmt::format("more than {} calls in one run: a loop that keeps calling "
                            "without waiting on the cluster?",
                            kMaxCalls)};
          }
          Call call{++calls_,
                    static_cast<std::uint16_t>(frame.integer(0, 0xffff, "operation code")), frame};
          world_.serve(call);
          break;
        }
        case Frame::cancel:
          remote_.cancel(frame.integer(1, calls_, "cancelled call"));
          break;
        case Frame::returned: {
          const auto actor = frame.integer(0, world_.actors - 1, "actor");
          if (returned_[actor]) throw ProtocolError(fmt::format("actor {} returned twice", actor));
          returned_[actor] = true;
          ++returned_count_;
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
        case Frame::idle:
          frame.end();
          return true;
        default:
          throw ProtocolError(fmt::format("a frame of unknown type {}", frame.type()));
      }
      frame.end();
    }
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
  std::int64_t requests_ = 0;             // frames the client sent, idle aside
  std::int64_t requests_at_settle_ = -1;  // requests_ when the judge last asked it to settle
};

}  // namespace

RunOutcome lock_step(sim::Simulator& sim, Link& link, Remote& remote, const protocol::Writer& hello,
                     const LockStep& world) {
  return Run(sim, link, remote, world).go(hello);
}

}  // namespace overlap::worlds
