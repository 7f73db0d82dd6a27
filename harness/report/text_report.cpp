#include "text_report.hpp"

#include <fmt/format.h>
#include <fmt/ostream.h>

#include <algorithm>
#include <cctype>
#include <cmath>
#include <set>
#include <vector>

#include "../verdict/verdict.hpp"
#include "gantt.hpp"

namespace overlap::report {

namespace {

// `text` with its continuation lines indented under the first (six spaces).
std::string continued(std::string text) {
  for (std::size_t at = 0; (at = text.find('\n', at)) != std::string::npos; at += 7) {
    text.replace(at, 1, "\n      ");
  }
  return text;
}

constexpr std::size_t kViolationsShown = 6;

// "  label       a, b, c" wrapped at 100 columns, continuation lines under the first item.
void print_list(std::ostream& out, const char* label, const std::vector<std::string>& items,
                const char* separator) {
  if (items.empty()) return;
  std::string line = fmt::format("  {:<12}", label);
  const std::size_t indent = line.size();
  for (std::size_t i = 0; i < items.size(); ++i) {
    std::string item = items[i] + (i + 1 < items.size() ? separator : "");
    if (line.size() > indent && line.size() + item.size() > 100) {
      fmt::print(out, "{}\n", line.substr(0, line.find_last_not_of(' ') + 1));
      line = std::string(indent, ' ');
    }
    line += item;
  }
  fmt::print(out, "{}\n", line);
}

std::string verdict_line(const verdict::ScenarioResult& r) {
  if (!r.correct) {
    return r.finished ? "FAIL: the run is not correct (see violations)"
                      : "FAIL: the run did not complete (see violations)";
  }
  return fmt::format(
      "{}: correct, speedup {:.2f}x; pass needs {:.2f}x, optimal {:.2f}x (within 2% of the best "
      "known, {:g} ms)",
      verdict::tier_heading(r.verdict), r.speedup, r.pass_speedup, r.optimal_speedup,
      r.best_known_ms);
}

void print_scenario(const verdict::ScenarioResult& r, std::ostream& out) {
  fmt::print(out, "\n{} ({})\n", r.name, r.description);
  fmt::print(out, "  verdict     {}\n", verdict_line(r));
  if (r.finished) {
    fmt::print(out,
               "  makespan    {:g} ms   baseline {:g} ms   bound {:g} ms   efficiency {:.1f}%\n",
               r.makespan_ms, r.baseline_ms, r.bound_ms, 100 * r.efficiency);
    fmt::print(out, "  bound       {}\n", r.bound_derivation);
    if (r.hindsight_ms > 0) fmt::print(out, "  hindsight   {}\n", verdict::hindsight_sentence(r));
    if (!r.best_known_note.empty()) fmt::print(out, "  best known  {}\n", r.best_known_note);
  }
  std::vector<std::string> parts;
  for (const auto& m : r.peak_memory) {
    parts.push_back(
        fmt::format("{} {:g}/{:g}{}", m.pool, m.peak, m.budget, m.peak > m.budget ? " OVER" : ""));
  }
  print_list(out, "peak memory", parts, ", ");
  parts.clear();
  for (const auto& d : r.utilisation) {
    parts.push_back(fmt::format("{} {:.0f}%", d.device, 100 * d.utilisation));
  }
  if (r.finished) print_list(out, "utilisation", parts, ", ");
  parts.clear();
  for (const auto& f : r.figures) {
    parts.push_back(fmt::format("{} {:g}{}{}", f.name, std::round(f.value * 1000) / 1000,
                                f.unit.empty() ? "" : " ", f.unit));
  }
  if (r.finished) print_list(out, "figures", parts, "; ");
  if (r.violations_total > 0) {
    fmt::print(out, "  violations  {}\n", r.violations_total);
    // The first of every kind, so that each is named, then the earliest others, in run order.
    std::vector<bool> shown(r.violations.size(), false);
    std::set<std::string> kinds;
    std::size_t count = 0;
    for (std::size_t i = 0; i < r.violations.size(); ++i) {
      if (kinds.insert(r.violations[i].kind).second) shown[i] = true, ++count;
    }
    for (std::size_t i = 0; i < r.violations.size() && count < kViolationsShown; ++i) {
      if (!shown[i]) shown[i] = true, ++count;
    }
    for (std::size_t i = 0; i < r.violations.size(); ++i) {
      const auto& v = r.violations[i];
      if (shown[i])
        fmt::print(out, "    [{}] at {:g} ms: {}\n", v.kind, v.at_ms, continued(v.message));
    }
    if (r.violations_total > count) {
      fmt::print(out, "    ... and {} more (all kinds listed in --json)\n",
                 r.violations_total - count);
    }
  }
  const Gantt chart = gantt(r);
  if (!chart.rows.empty()) {
    std::string legend;
    std::vector<char> seen;
    for (const auto& e : r.timeline) {
      if (std::find(seen.begin(), seen.end(), e.glyph) != seen.end()) continue;
      seen.push_back(e.glyph);
      legend += fmt::format("{} {}, ", e.glyph, e.kind);
    }
    fmt::print(
        out,
        "  timeline    first {:g} ms, {:g} ms per column; {}lower case busy part of the column, "
        ". idle, ! overlap\n",
        chart.window_ms, chart.column_ms, legend);
    for (const auto& row : chart.rows) fmt::print(out, "    {}\n", row);
  }
  if (!r.output.empty()) {  // escaped by the judge: it cannot repaint the terminal
    fmt::print(out, "  output      (the submission's stdout and stderr)\n      {}\n",
               continued(r.output));
  }
}

// The line that sums the grade up: the overall tier, then each scenario's.
void print_total(const verdict::Report& report, std::ostream& out) {
  std::vector<std::string> parts;
  for (const auto& r : report.scenarios) {
    parts.push_back(
        r.correct ? fmt::format("{} {} {:.2f}x", r.name, verdict::tier_name(r.verdict), r.speedup)
                  : fmt::format("{} fail", r.name));
  }
  fmt::print(out, "\n{}: {} ({})\n", report.exercise, verdict::tier_heading(report.verdict),
             fmt::join(parts, ", "));
}

}  // namespace

void print_text(const verdict::Report& report, std::ostream& out) {
  fmt::print(out, "overlap: grading {} ({}, built with {}){}\n", report.exercise, report.submission,
             report.compiler,
             report.provenance.namespaces
                 ? ""
                 : ", WITHOUT THE SANDBOX'S NAMESPACES (--no-sandbox): only the system-call "
                   "filter and the limits held");
  const verdict::Provenance& p = report.provenance;
  fmt::print(out, "  sha256 {}, kit {}{}, time limit {:g} s a scenario, seed {}\n",
             p.submission_sha256.empty() ? "unknown" : p.submission_sha256.substr(0, 16),
             p.kit_commit.substr(0, 12), p.kit_modified ? " (modified)" : "", p.time_limit_s,
             report.seed);
  for (const auto& r : report.scenarios) print_scenario(r, out);
  print_total(report, out);
  fmt::print(out, "graded {} scenario{} in {:.2f} s of real time\n", report.scenarios.size(),
             report.scenarios.size() == 1 ? "" : "s", report.real_seconds);
}

void print_summary(const verdict::Report& report, std::ostream& out) {
  for (const auto& r : report.scenarios) {
    fmt::print(out, "\n{} ({})\n  verdict     {}\n", r.name, r.description, verdict_line(r));
    if (!r.violations.empty()) {
      const auto& v = r.violations.front();
      fmt::print(out, "    [{}] at {:g} ms: {}\n", v.kind, v.at_ms, continued(v.message));
    }
  }
  print_total(report, out);
}

}  // namespace overlap::report
