// The judge's side of the calls a submission makes (protocol/frames.hpp): reading a call's
// arguments, the objects its handles name, and the handlers a world completes, which queue the
// completion frames for the submission. A world's `serve` turns each call into one of its
// operations with these.
#pragma once

#include <boost/asio/bind_cancellation_slot.hpp>
#include <boost/asio/cancellation_signal.hpp>
#include <cstdint>
#include <deque>
#include <map>
#include <optional>
#include <overlap/handler.hpp>
#include <stdexcept>
#include <string>
#include <utility>

#include "../../protocol/described.hpp"
#include "../../protocol/frames.hpp"
#include "../../protocol/message.hpp"
#include "../../sim/operation.hpp"

namespace overlap::worlds {

// A handle naming no object the call can take: one the judge never issued, or whose object an
// earlier call consumed. The kit's client never sends one; a submission that forges or copies
// handles does. The call is refused as a misuse (exercise_of.hpp) and the run goes on.
class BadHandle : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

// A call as the judge reads it: its number (call order, from 1), its operation code and its
// arguments. An argument that is missing, of the wrong type or out of its bound is a
// protocol::ProtocolError: only a client that is not the kit's sends one.
struct Call {
  std::int64_t number;
  std::uint16_t op;
  protocol::Reader& args;

  // The arguments, whole, each within its range in `Ranges` (the world's wire.hpp) given the
  // hello the submission was sent.
  template <typename T, const auto& Ranges, typename Hello>
  T read(const Hello& hello) {
    return protocol::read<T, Ranges>(args, hello);
  }
  // Handle `h` of the arguments (the `what`), checked where the call uses it: an earlier call's
  // number, or 0 for an empty object; BadHandle for any other.
  std::int64_t handle(protocol::Handle h, const char* what) const {
    const auto n = static_cast<std::int64_t>(h);
    if (n < 0 || n >= number) {
      throw BadHandle("handle " + std::to_string(n) + " (the " + what +
                      ") names no call made before this one: an object the cluster never issued");
    }
    return n;
  }
};

// The objects of one type that calls made (tensors, gradients, ...), by handle: the number of
// the call that made each.
template <typename T>
class Handles {
 public:
  void add(std::int64_t handle, T object) { objects_.insert_or_assign(handle, std::move(object)); }

  // The object `handle` names; nullptr for handle 0 (an empty or moved-from object, which the
  // world rejects as a misuse). A handle that names nothing live (its call made no such object,
  // or an earlier call consumed it) is a BadHandle.
  const T* find(std::int64_t handle, const char* what) const {
    if (handle == 0) return nullptr;
    return &*live(objects_, handle, what);
  }
  // The same, consumed: the call takes the object, and the handle names nothing after it.
  std::optional<T> take(std::int64_t handle, const char* what) {
    if (handle == 0) return std::nullopt;
    return std::exchange(live(objects_, handle, what), std::nullopt);
  }

 private:
  // The entry of a live object. A consumed object's entry stays, empty: its handle is told
  // from one never made, and taking an object allocates nothing.
  template <typename Objects>
  static auto& live(Objects& objects, std::int64_t handle, const char* what) {
    auto it = objects.find(handle);
    if (it == objects.end()) {
      throw BadHandle("handle " + std::to_string(handle) + " names no " + what + ": call " +
                      std::to_string(handle) + " made none");
    }
    if (!it->second) {
      throw BadHandle("handle " + std::to_string(handle) + " (" + what +
                      ") was consumed by an earlier call: each is used once");
    }
    return it->second;
  }
  std::map<std::int64_t, std::optional<T>> objects_;
};

// The calls in flight: what the world completes is queued as completion frames, in order.
class Remote {
 public:
  // The handler for call `number`: when the world completes it, a completion frame with the
  // error and, on success, `encode(writer, results...)`. Cancellable through cancel(number).
  template <typename... R, typename Encode>
  Handler<R...> reply(std::int64_t number, Encode encode) {
    return boost::asio::bind_cancellation_slot(
        signal(number).slot(), [this, number, encode = std::move(encode)](
                                   boost::system::error_code ec, R... results) mutable {
          protocol::Writer w(static_cast<std::uint16_t>(protocol::Frame::completion));
          w.integer(number).text(ec ? ec.category().name() : "").integer(ec.value());
          if (!ec) encode(w, std::move(results)...);
          batch_.append(w.frame());
          signals_[number - 1].slot().clear();  // a late cancel reaches nothing
        });
  }
  Handler<> reply(std::int64_t number) {
    return reply<>(number, [](protocol::Writer&) {});
  }

  // Refuses call `number` as a misuse (a BadHandle among its arguments): a `misuse` violation
  // naming the operation and why and, if the call gets a completion, one with errc::misuse.
  void refuse(sim::Simulator& sim, std::int64_t number, const protocol::Operation& operation,
              const std::string& why) {
    const std::string message = std::string(operation.name) + ": " + why;
    if (!operation.completes) return sim.violations().add("misuse", message, sim.now());
    sim::reject(sim, reply(number), message);
  }

  // The submission cancelled call `number`: the operation ends now if it is still running and
  // supports cancellation; otherwise nothing happens (as with any Asio operation).
  void cancel(std::int64_t number) {
    if (number <= static_cast<std::int64_t>(signals_.size())) {
      signals_[number - 1].emit(boost::asio::cancellation_type::all);
    }
  }

  bool has_batch() const { return !batch_.empty(); }
  std::string take_batch() { return std::exchange(batch_, {}); }

 private:
  boost::asio::cancellation_signal& signal(std::int64_t number) {
    if (number > static_cast<std::int64_t>(signals_.size())) signals_.resize(number);
    return signals_[number - 1];
  }

  // Call n's signal at n - 1, never erased: 8 bytes a call (the calls of a run are capped), and
  // no search or allocation per call.
  std::deque<boost::asio::cancellation_signal> signals_;
  std::string batch_;
};

// A call as a world's State serves it, in its overload for the call's operation:
//   void start(const wire::Forward& args, worlds::Serving& call);
// the handles its arguments name, and the handler that completes it.
struct Serving {
  Call& call;
  Remote& remote;

  std::int64_t number() const { return call.number; }
  std::int64_t handle(protocol::Handle h, const char* what) const { return call.handle(h, what); }
  Handler<> reply() { return remote.reply(call.number); }
  // The handler of a call that makes an object: kept in `objects` under the call's number (the
  // submission's handle of it), its facts (`facts(object)`, a described struct) sent.
  template <typename T, typename Facts>
  Handler<T> keep(Handles<T>& objects, Facts facts) {
    return remote.reply<T>(call.number,
                           [&objects, number = call.number, facts](protocol::Writer& w, T object) {
                             protocol::write(w, facts(object));
                             objects.add(number, std::move(object));
                           });
  }
};

}  // namespace overlap::worlds
