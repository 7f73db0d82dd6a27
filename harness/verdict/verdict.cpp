#include "verdict.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <boost/describe/enum_to_string.hpp>
#include <cctype>

namespace overlap::verdict {

void rate(ScenarioResult& r) {
  r.correct = r.finished && r.violations_total == 0;
  r.speedup = r.makespan_ms > 0 ? r.baseline_ms / r.makespan_ms : 0;
  r.efficiency = r.makespan_ms > 0 ? r.bound_ms / r.makespan_ms : 0;
  const double pass_makespan =
      r.best_known_ms + kPassGapFraction * (r.baseline_ms - r.best_known_ms);
  r.pass_speedup = pass_makespan > 0 ? r.baseline_ms / pass_makespan : 0;
  r.optimal_speedup =
      r.best_known_ms > 0 ? r.baseline_ms / (r.best_known_ms * (1 + kOptimalSlack)) : 0;
  if (!r.correct) {
    r.verdict = Tier::fail;
  } else if (r.makespan_ms <= r.best_known_ms * (1 + kOptimalSlack)) {
    r.verdict = Tier::optimal;
  } else if (r.makespan_ms <= pass_makespan) {
    r.verdict = Tier::pass;
  } else {
    r.verdict = Tier::slow;
  }
}

Tier overall(const std::vector<ScenarioResult>& results) {
  Tier worst = Tier::optimal;
  for (const ScenarioResult& r : results) worst = std::min(worst, r.verdict);
  return results.empty() ? Tier::fail : worst;
}

const char* tier_name(Tier tier) {
  const char* name = boost::describe::enum_to_string(tier, "?");
  return name;
}

std::string tier_heading(Tier tier) {
  std::string heading = tier_name(tier);
  for (char& c : heading) c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
  return heading;
}

std::string hindsight_sentence(const ScenarioResult& r) {
  return fmt::format("{:g} ms, by {}; tiers are graded against the best known, {:g} ms",
                     r.hindsight_ms, r.hindsight_note, r.best_known_ms);
}

int exit_code(Tier overall) { return overall >= Tier::pass ? 0 : 1; }

}  // namespace overlap::verdict
