// What grading a submission produces: plain data that the grader fills and the report writers
// read. Neither the simulator nor any world appears here. Every type is described (Boost.Describe)
// so that JSON conversions come from the one list of members, and comparable for tests.
#pragma once

#include <boost/describe/class.hpp>
#include <boost/describe/enum.hpp>
#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

namespace overlap::verdict {

BOOST_DEFINE_ENUM_CLASS(Tier, fail, slow, pass, optimal)

struct ViolationEntry {
  std::string kind;  // "contention", "out-of-memory", "deadlock", "wrong-result", ...
  std::string message;
  double at_ms = 0;
  friend bool operator==(const ViolationEntry&, const ViolationEntry&) = default;
};
BOOST_DESCRIBE_STRUCT(ViolationEntry, (), (kind, message, at_ms))

struct MemoryPeak {
  std::string pool;  // "stage 0 activations"
  std::string unit;  // "stashes"
  double peak = 0;
  double budget = 0;
  friend bool operator==(const MemoryPeak&, const MemoryPeak&) = default;
};
BOOST_DESCRIBE_STRUCT(MemoryPeak, (), (pool, unit, peak, budget))

struct DeviceUse {
  std::string device;
  double busy_ms = 0;
  double utilisation = 0;  // busy / makespan
  friend bool operator==(const DeviceUse&, const DeviceUse&) = default;
};
BOOST_DESCRIBE_STRUCT(DeviceUse, (), (device, busy_ms, utilisation))

// An exercise's own figure: "bubble fraction", "makespan per step", ...
struct Figure {
  std::string name;
  double value = 0;
  std::string unit;
  friend bool operator==(const Figure&, const Figure&) = default;
};
BOOST_DESCRIBE_STRUCT(Figure, (), (name, value, unit))

// A scenario's parameter as the report records it ("worker_ms": 10, 20.374, ...): with the
// scenario's name, enough to see what was run; the name alone replays it.
struct Parameter {
  std::string name;
  std::vector<double> values;
  friend bool operator==(const Parameter&, const Parameter&) = default;
};
BOOST_DESCRIBE_STRUCT(Parameter, (), (name, values))

struct TimelineEvent {
  int device = 0;
  std::string kind;
  std::string detail;
  char glyph = '#';
  double start_ms = 0;
  double end_ms = 0;
  std::string status;  // "done", "cancelled", "failed", "running"
  friend bool operator==(const TimelineEvent&, const TimelineEvent&) = default;
};
BOOST_DESCRIBE_STRUCT(TimelineEvent, (), (device, kind, detail, glyph, start_ms, end_ms, status))

struct ScenarioResult {
  // The scenario and its facts, from the world.
  std::string name;
  std::string description;
  double baseline_ms = 0;
  double bound_ms = 0;
  std::string bound_derivation;
  double best_known_ms = 0;     // the best known makespan, that `optimal` is graded against
  std::string best_known_note;  // how the best known is reached: for interviewers only
  // A makespan below the best known that needs what a program is not told (0: none), and what
  // that is. Shown beside the best known; tiers never use it.
  double hindsight_ms = 0;
  std::string hindsight_note;
  std::vector<Parameter> parameters;

  // The run.
  bool finished = false;  // the submission returned
  double makespan_ms = 0;
  std::vector<ViolationEntry> violations;
  std::size_t violations_total = 0;  // the list keeps the first few
  std::vector<MemoryPeak> peak_memory;
  std::vector<DeviceUse> utilisation;
  std::vector<Figure> figures;
  // The paths of the exercise this run took ("failure-during-pull", "decision-mid-compute"):
  // what a set of generated scenarios is checked to reach.
  std::vector<std::string> paths_taken;
  std::vector<TimelineEvent> timeline;
  double chart_window_ms = 0;  // the terminal Gantt chart shows [0, chart_window_ms)
  std::string output;          // what the submission printed (capped, control characters escaped)

  // Filled by the grader from the above (verdict.hpp).
  bool correct = false;
  Tier verdict = Tier::fail;
  double speedup = 0;
  double efficiency = 0;
  double pass_speedup = 0;     // the speedup `pass` needs
  double optimal_speedup = 0;  // the speedup `optimal` needs

  friend bool operator==(const ScenarioResult&, const ScenarioResult&) = default;
};
BOOST_DESCRIBE_STRUCT(ScenarioResult, (),
                      (name, description, baseline_ms, bound_ms, bound_derivation, best_known_ms,
                       best_known_note, hindsight_ms, hindsight_note, parameters, finished,
                       makespan_ms, violations, violations_total, peak_memory, utilisation, figures,
                       paths_taken, timeline, chart_window_ms, output, correct, verdict, speedup,
                       efficiency, pass_speedup, optimal_speedup))

// Where a verdict came from: the exact submission, the kit that judged it, and the limits.
struct Provenance {
  std::string submission_sha256;  // of the graded file's bytes ("" when the judge had no file)
  std::string kit_commit;         // the kit's git commit, or "no git"
  bool kit_modified = false;      // a tracked file differs from that commit, outside exercises/
  double time_limit_s = 0;        // real seconds a scenario may take
  bool namespaces = true;         // built and run in the sandbox's namespaces (false: --no-sandbox)
  friend bool operator==(const Provenance&, const Provenance&) = default;
};
BOOST_DESCRIBE_STRUCT(Provenance, (),
                      (submission_sha256, kit_commit, kit_modified, time_limit_s, namespaces))

struct Report {
  std::string exercise;
  std::string submission;  // the graded file
  std::string compiler;    // the compiler that built the submission: "clang++ 14.0.6"
  Provenance provenance;
  std::uint64_t seed = 0;  // of the generated scenarios graded (their names say which)
  Tier verdict = Tier::fail;
  std::vector<ScenarioResult> scenarios;
  double real_seconds = 0;  // terminal report only: the JSON stays byte-identical across runs
  friend bool operator==(const Report&, const Report&) = default;
};
BOOST_DESCRIBE_STRUCT(Report, (),
                      (exercise, submission, compiler, provenance, seed, verdict, scenarios))

}  // namespace overlap::verdict
