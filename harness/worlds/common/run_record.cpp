#include "run_record.hpp"

#include <fmt/format.h>

#include <algorithm>

namespace overlap::worlds {

namespace {

const char* status_name(sim::OpStatus s) {
  switch (s) {
    case sim::OpStatus::running:
      return "running";
    case sim::OpStatus::done:
      return "done";
    case sim::OpStatus::cancelled:
      return "cancelled";
    case sim::OpStatus::failed:
      return "failed";
  }
  return "?";
}

std::string last_operations(const sim::Simulator& sim) {
  std::vector<const sim::OpRecord*> last(sim.devices().size(), nullptr);
  for (const sim::OpRecord& op : sim.timeline().ops) last[op.device] = &op;
  std::string out;
  for (const sim::Device& device : sim.devices()) {
    const sim::OpRecord* op = last[device.id];
    out += op ? fmt::format("\n  {}: last ran {}, ended at {:g} ms{}", device.name, op->describe(),
                            sim::to_ms(op->end),
                            op->status == sim::OpStatus::done
                                ? ""
                                : fmt::format(" ({})", status_name(op->status)))
              : fmt::format("\n  {}: never used", device.name);
  }
  return out;
}

}  // namespace

void add_unfinished_work(sim::Simulator& sim, const RunOutcome& outcome) {
  if (!outcome.returned) return;
  const auto& ops = sim.timeline().ops;
  const double returned = sim::to_ms(outcome.returned_at);
  for (std::size_t i = 0; i < ops.size(); ++i) {
    const sim::OpRecord& op = ops[i];
    const bool began_after = i >= outcome.ops_at_return;
    if (!began_after && !op.runs_past(outcome.returned_at)) continue;
    const std::string& device = sim.devices()[op.device].name;
    sim.violations().add(
        "unfinished-work",
        began_after
            ? fmt::format("{}: {} began at {:g} ms, after train returned at {:g} ms, and ran {}: "
                          "work left behind (a detached coroutine, a handler still waiting?)",
                          device, op.describe(), sim::to_ms(op.start), returned, op.until())
            : fmt::format("{}: {} was still running when train returned at {:g} ms, {}: wait "
                          "for it, or cancel it, before returning",
                          device, op.describe(), returned, op.until()),
        began_after ? op.start : outcome.returned_at);
  }
  if (const auto& late = outcome.late_call) {
    sim.violations().add(
        "unfinished-work",
        fmt::format("{} was called at {:g} ms, after train returned at {:g} ms: work left behind "
                    "(a detached coroutine, a handler still waiting?)",
                    late->first, sim::to_ms(late->second), returned),
        late->second);
  }
}

void add_run_end_violation(sim::Simulator& sim, const RunOutcome& outcome,
                           const std::string& outstanding) {
  const sim::Time now = sim.now();
  if (outcome.failure) {
    // Out of real time: where virtual time stood, and what each device did last.
    const bool stuck = outcome.failure->first == "time-limit";
    sim.violations().add(
        outcome.failure->first,
        stuck ? fmt::format("{}\n  virtual time stood at {:g} ms:{}", outcome.failure->second,
                            sim::to_ms(now), last_operations(sim))
              : outcome.failure->second,
        now);
    return;
  }
  if (outcome.thrown) {
    // After a misuse, the exception that carried its error out of train says nothing more.
    const auto& list = sim.violations().list();
    const bool misused = std::any_of(list.begin(), list.end(),
                                     [](const sim::Violation& v) { return v.kind == "misuse"; });
    if (outcome.thrown->echo && misused) return;
    sim.violations().add(
        "exception",
        fmt::format("{} threw: {}", outcome.thrown->actor < 0 ? "a completion handler" : "train",
                    outcome.thrown->what),
        now);
    return;
  }
  switch (outcome.end) {
    case sim::RunEnd::finished:
      return;
    case sim::RunEnd::deadlock:
      sim.violations().add(
          "deadlock",
          fmt::format("nothing is running or scheduled and train has not "
                      "returned, so something waits for an event that cannot happen (a channel "
                      "nobody sends on, a coroutine nobody resumes, or anything outside "
                      "simulated time: a real timer, another thread).{}{}",
                      last_operations(sim),
                      outstanding.empty() ? "" : "\n  outstanding: " + outstanding),
          now);
      return;
    case sim::RunEnd::time_limit:
      sim.violations().add("time-limit",
                           fmt::format("still running past {:g} ms of virtual time, many times "
                                       "the baseline: work that never ends?",
                                       sim::to_ms(now)),
                           now);
      return;
    case sim::RunEnd::out_of_time:
      sim.violations().add(
          "time-limit",
          fmt::format("the real-time limit ran out while the judge was still applying the "
                      "submission's calls: more work than a run can take (a loop that issues "
                      "operations without waiting for them?)\n  virtual time stood at {:g} ms:{}",
                      sim::to_ms(now), last_operations(sim)),
          now);
      return;
    case sim::RunEnd::event_limit:
      sim.violations().add("time-limit",
                           "too many simulated events: a loop that keeps issuing operations?", now);
      return;
  }
}

namespace {

verdict::ScenarioResult record_facts(const ScenarioFacts& facts) {
  verdict::ScenarioResult result;
  result.name = facts.name;
  result.description = facts.description;
  result.baseline_ms = facts.baseline_ms;
  result.bound_ms = facts.bound.ms;
  result.bound_derivation = facts.bound.derivation;
  result.best_known_ms = facts.best_known_ms;
  result.best_known_note = facts.best_known_note;
  result.hindsight_ms = facts.hindsight_ms;
  result.hindsight_note = facts.hindsight_note;
  return result;
}

}  // namespace

verdict::ScenarioResult record_run(const sim::Simulator& sim, const RunOutcome& outcome,
                                   const ScenarioFacts& facts) {
  verdict::ScenarioResult result = record_facts(facts);
  result.finished = outcome.completed();
  // When train returned; work it left behind shows in the chart and the violations.
  result.makespan_ms = sim::to_ms(outcome.returned ? outcome.returned_at : sim.finish_time());
  result.chart_window_ms = sim::to_ms(sim.finish_time());
  for (const sim::Device& device : sim.devices()) {
    sim::Time busy = device.busy;
    if (!device.idle()) busy += sim.finish_time() - device.busy_since;
    result.utilisation.push_back(
        {device.name, sim::to_ms(busy),
         sim.finish_time() > 0 ? static_cast<double>(busy) / static_cast<double>(sim.finish_time())
                               : 0.0});
  }
  for (const sim::MemoryPool& pool : sim.pools()) {
    result.peak_memory.push_back({pool.name(), pool.unit(), pool.peak(), pool.budget()});
  }
  result.timeline.reserve(sim.timeline().ops.size());
  for (const sim::OpRecord& op : sim.timeline().ops) {
    result.timeline.push_back({op.device, op.info.kind, op.info.detail, op.info.glyph,
                               sim::to_ms(op.start), sim::to_ms(op.end), status_name(op.status)});
  }
  for (const sim::Violation& v : sim.violations().list()) {
    result.violations.push_back({v.kind, v.message, sim::to_ms(v.at)});
  }
  result.violations_total = sim.violations().total();
  return result;
}

}  // namespace overlap::worlds
