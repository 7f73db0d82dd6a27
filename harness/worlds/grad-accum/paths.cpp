#include "paths.hpp"

#include <algorithm>

namespace overlap::grad_accum {

namespace {

// Whether a gradient was being computed at the instant of stop(): one that started before it and
// ended after it, or was cancelled then.
bool computing_at(const std::vector<verdict::TimelineEvent>& timeline, double stopped) {
  return std::any_of(timeline.begin(), timeline.end(), [&](const verdict::TimelineEvent& op) {
    return op.kind == "compute" && op.start_ms < stopped &&
           (op.end_ms > stopped || (op.end_ms == stopped && op.status == "cancelled"));
  });
}

bool results_out_of_order(const detail::State& world, const Decision& decision) {
  const auto& v = world.validations();
  const int checks = std::min(static_cast<int>(v.size()), decision.stop_check);
  for (int c = 1; c < checks; ++c) {
    if (v[c].end >= 0 && v[c - 1].end >= 0 && v[c].end < v[c - 1].end) return true;
  }
  return false;
}

}  // namespace

std::vector<std::string> paths_taken(const detail::State& world, const Decision& decision,
                                     const std::vector<verdict::TimelineEvent>& timeline) {
  const Scenario& s = world.scenario();
  std::vector<std::string> paths;
  paths.push_back(decision.by_patience ? "early-stop" : "no-early-stop");
  if (world.stopped_at()) {
    if (computing_at(timeline, sim::to_ms(*world.stopped_at()))) {
      paths.push_back("decision-mid-compute");
    } else if (world.step_at_stop() < s.max_steps) {
      paths.push_back("decision-mid-apply");  // during an optimizer step, or between steps
    }
  }
  for (int v = 1; v < s.validators; ++v) {
    if (s.validation_ms(v) != s.validation_ms(0)) {
      paths.push_back("uneven-validators");
      break;
    }
  }
  if (results_out_of_order(world, decision)) paths.push_back("results-out-of-order");
  return paths;
}

}  // namespace overlap::grad_accum
