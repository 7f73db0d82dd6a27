// The virtual clock. It owns a one-thread io_context and its own ordered event queue: handlers
// run until none is ready, then time jumps to the next simulated completion. Events at the same
// time fire in the order they were scheduled, and all of them fire (freeing devices and memory)
// before any handler they post runs: an operation ending at t frees its device before any
// submission at t.
#pragma once

#include <atomic>
#include <boost/asio/io_context.hpp>
#include <cstdint>
#include <deque>
#include <functional>
#include <map>
#include <optional>
#include <string>
#include <utility>

#include "action.hpp"
#include "device.hpp"
#include "memory.hpp"
#include "time.hpp"
#include "timeline.hpp"
#include "violation.hpp"

namespace overlap::sim {

using EventId = std::pair<Time, std::uint64_t>;  // (time, sequence): the queue's order

// time_limit and event_limit bound simulated time and events; out_of_time is the real-time
// deadline (set_deadline).
enum class RunEnd { finished, deadlock, time_limit, event_limit, out_of_time };

class Simulator {
 public:
  Simulator();
  Simulator(const Simulator&) = delete;
  Simulator& operator=(const Simulator&) = delete;

  boost::asio::io_context& io() { return io_; }
  Time now() const { return now_; }

  // The run gives up past this virtual time, or past this many events.
  void set_limits(Time virtual_time, std::uint64_t events);
  // The run ends once `passed` is set (a real-time deadline): read once per handler and per
  // event, so no instant, however full, outlasts it.
  void set_deadline(const std::atomic<bool>& passed) { deadline_ = &passed; }
  bool out_of_time() const { return deadline_->load(std::memory_order_relaxed); }

  EventId schedule(Time at, Action action);
  bool unschedule(EventId id);  // false if it already fired

  Device& add_device(std::string name);
  MemoryPool& add_pool(std::string name, std::string unit, double budget);
  const std::deque<Device>& devices() const { return devices_; }
  const std::deque<MemoryPool>& pools() const { return pools_; }

  // Starts an operation on `device` now, planned to end after `duration` (0 when its end is not
  // known yet, as for a collective waiting for other ranks). A busy device is a contention
  // violation naming both operations; the operation still runs, so the rest of the run can be
  // reported.
  OpId begin(Device& device, OpInfo info, Time duration);
  // Ends the operation now (its planned end, or earlier when cancelled or failed).
  void end(OpId op, OpStatus status);

  const Timeline& timeline() const { return timeline_; }
  Violations& violations() { return violations_; }
  const Violations& violations() const { return violations_; }

  // Runs handlers and events until `finished()` holds or nothing more can happen.
  RunEnd run(const std::function<bool()>& finished);

  // The two halves of run(), for a loop that interleaves them with a submission's requests:
  // runs every handler ready now (or until out of time); then moves the clock to the next
  // instant with an event and fires all of that instant's events (an end when there is none, or
  // past a limit).
  void run_ready();
  std::optional<RunEnd> advance();
  // Marks the run finished now (the makespan ends no earlier than this instant).
  void finish_now();

  // The time of the last operation's end or of `finished()`: the makespan.
  Time finish_time() const { return finish_time_; }

 private:
  boost::asio::io_context io_{1};
  Time now_ = 0;
  Time finish_time_ = 0;
  Time time_limit_ = from_ms(3'600'000);
  std::uint64_t event_limit_ = 50'000'000;
  std::uint64_t next_sequence_ = 0;
  std::uint64_t fired_ = 0;
  static inline const std::atomic<bool> kNoDeadline{false};
  const std::atomic<bool>* deadline_ = &kNoDeadline;
  std::map<EventId, Action> events_;
  std::deque<Device> devices_;
  std::deque<MemoryPool> pools_;
  Timeline timeline_;
  Violations violations_;
};

}  // namespace overlap::sim
