#include "simulator.hpp"

#include <fmt/format.h>

namespace overlap::sim {

Simulator::Simulator() = default;

void Simulator::set_limits(Time virtual_time, std::uint64_t events) {
  time_limit_ = virtual_time;
  event_limit_ = events;
}

EventId Simulator::schedule(Time at, Action action) {
  EventId id{at < now_ ? now_ : at, next_sequence_++};
  events_.emplace(id, std::move(action));
  return id;
}

bool Simulator::unschedule(EventId id) { return events_.erase(id) > 0; }

Device& Simulator::add_device(std::string name) {
  Device& d = devices_.emplace_back();
  d.id = static_cast<int>(devices_.size()) - 1;
  d.name = std::move(name);
  return d;
}

MemoryPool& Simulator::add_pool(std::string name, std::string unit, double budget) {
  return pools_.emplace_back(std::move(name), std::move(unit), budget, violations_);
}

OpId Simulator::begin(Device& device, OpInfo info, Time duration) {
  const OpId id = timeline_.ops.size();
  timeline_.ops.push_back({device.id, std::move(info), now_, now_ + duration, OpStatus::running});
  const OpRecord& op = timeline_.ops.back();
  if (!device.idle()) {
    const OpRecord& other = timeline_.ops[device.running.front()];
    violations_.add(
        "contention",
        fmt::format("{} is busy: {} was submitted at {:g} ms while {} runs {}", device.name,
                    op.describe(), to_ms(now_), other.describe(),
                    other.end > other.start
                        ? fmt::format("from {:g} to {:g} ms", to_ms(other.start), to_ms(other.end))
                        : fmt::format("since {:g} ms", to_ms(other.start))),
        now_);
  } else {
    device.busy_since = now_;
  }
  device.running.push_back(id);
  ++device.running_count;
  return id;
}

void Simulator::end(OpId id, OpStatus status) {
  OpRecord& op = timeline_.ops[id];
  if (op.status != OpStatus::running) return;  // an operation ends once
  op.end = now_;
  op.status = status;
  Device& device = devices_[op.device];
  --device.running_count;
  // Ended operations leave from the front only, each once: no search of the running list.
  while (!device.running.empty() &&
         timeline_.ops[device.running.front()].status != OpStatus::running) {
    device.running.pop_front();
  }
  if (device.idle()) device.busy += now_ - device.busy_since;
  if (now_ > finish_time_) finish_time_ = now_;
}

void Simulator::run_ready() {
  // An io_context with no outstanding work stops; restart it so that poll() runs again.
  io_.restart();
  while (!out_of_time() && io_.poll_one() > 0) {
  }
}

std::optional<RunEnd> Simulator::advance() {
  if (out_of_time()) return RunEnd::out_of_time;
  if (events_.empty()) return RunEnd::deadlock;
  const Time next = events_.begin()->first.first;
  if (next > time_limit_) return RunEnd::time_limit;
  now_ = next;
  while (!events_.empty() && events_.begin()->first.first == next) {
    if (++fired_ > event_limit_) return RunEnd::event_limit;
    if (out_of_time()) return RunEnd::out_of_time;
    auto node = events_.extract(events_.begin());
    node.mapped()();
  }
  return std::nullopt;
}

void Simulator::finish_now() {
  if (now_ > finish_time_) finish_time_ = now_;
}

RunEnd Simulator::run(const std::function<bool()>& finished) {
  for (;;) {
    run_ready();
    if (finished()) {
      finish_now();
      return RunEnd::finished;
    }
    if (auto end = advance()) return *end;
  }
}

}  // namespace overlap::sim
