// What grading a submission produces: plain data that the report writers read. Neither the
// simulator nor any world appears here.
#pragma once

#include <cstddef>
#include <string>
#include <vector>

namespace overlap::grade {

enum class Tier { fail, slow, pass, optimal };

struct ViolationEntry {
  std::string kind;  // "contention", "out-of-memory", "deadlock", "wrong-result", ...
  std::string message;
  double at_ms = 0;
};

struct MemoryPeak {
  std::string pool;  // "stage 0 activations"
  std::string unit;  // "stashes"
  double peak = 0;
  double budget = 0;
};

struct DeviceUse {
  std::string device;
  double busy_ms = 0;
  double utilisation = 0;  // busy / makespan
};

// An exercise's own figure: "bubble fraction", "makespan per step", ...
struct Figure {
  std::string name;
  double value = 0;
  std::string unit;
};

struct TimelineEvent {
  int device = 0;
  std::string kind;
  std::string detail;
  char glyph = '#';
  double start_ms = 0;
  double end_ms = 0;
  std::string status;  // "done", "cancelled", "failed", "running"
};

struct ScenarioResult {
  std::string name;
  std::string description;
  bool finished = false;  // the submission returned
  double makespan_ms = 0;
  double baseline_ms = 0;
  double bound_ms = 0;
  std::string bound_derivation;
  double optimum_ms = 0;  // the reachable optimum that `optimal` is graded against
  std::string optimum_note;
  std::vector<ViolationEntry> violations;
  std::size_t violations_total = 0;  // the list keeps the first few
  std::vector<MemoryPeak> peak_memory;
  std::vector<DeviceUse> devices;
  std::vector<Figure> figures;
  std::vector<TimelineEvent> timeline;
  double chart_window_ms = 0;  // the terminal Gantt chart shows [0, chart_window_ms)

  // Filled by the grader from the above.
  bool correct = false;
  Tier verdict = Tier::fail;
  double speedup = 0;
  double efficiency = 0;
  double pass_speedup = 0;     // the speedup `pass` needs
  double optimal_speedup = 0;  // the speedup `optimal` needs
};

struct Report {
  int schema = 1;
  std::string exercise;
  std::string submission;  // the graded file
  Tier verdict = Tier::fail;
  std::vector<ScenarioResult> scenarios;
  double real_seconds = 0;  // terminal report only: the JSON stays byte-identical across runs
};

}  // namespace overlap::grade
