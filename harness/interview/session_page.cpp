#include "session_page.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <sstream>

#include "../protocol/text.hpp"
#include "../report/html_report.hpp"
#include "../verdict/verdict.hpp"

namespace overlap::interview {

namespace {

using report::html_escape;
using Out = std::back_insert_iterator<std::string>;

constexpr std::size_t kDiffCells = 4'000'000;  // past this, a version is shown whole
constexpr int kContext = 3;                    // kept lines shown around a change

// The chart: minutes across, the tiers up, with "did not build" below `fail`. The axis has at
// most about kLabels labels, however far off the last event.
constexpr double kLeft = 90, kTop = 12, kRow = 26, kWidth = 760, kMinutes = 45;
constexpr int kLabels = 20;

// A record's text on the page: its control characters shown, then escaped for HTML.
std::string page_text(std::string_view text) { return html_escape(protocol::escape_control(text)); }

// A point of the chart: a grade that gives the file its tier (this kit's, of the default set; a
// file that did not build did not, whatever the set).
bool charted(const Event& e) {
  return e.kind == Event::Kind::grade && trusted(e) && (e.full_set || !e.built);
}

std::vector<std::string> lines_of(const std::string& text) {
  std::vector<std::string> out;
  std::istringstream in(text);
  for (std::string line; std::getline(in, line);) out.push_back(line);
  return out;
}

const char* kStyle = R"(
:root { font-family: system-ui, sans-serif; color: #1d1d1f; background: #fff; }
body { margin: 24px; max-width: 1240px; }
h1 { font-size: 1.5em; margin: 0 0 8px; }
h2 { font-size: 1.2em; margin: 24px 0 6px; }
pre { font-family: ui-monospace, monospace; font-size: 0.85em; background: #f5f5f7; padding: 8px;
      overflow-x: auto; }
table { border-collapse: collapse; }
th, td { padding: 3px 10px; text-align: left; border-bottom: 1px solid #e5e5ea;
         vertical-align: top; }
.tier-optimal { color: #1b7f37; } .tier-pass { color: #2f6fb3; }
.tier-slow { color: #b36b00; } .tier-fail, .tier-build { color: #c4262e; }
svg .axis { stroke: #d2d2d7; } svg text { font-size: 11px; fill: #6e6e73; }
svg .path { fill: none; stroke: #2f6fb3; stroke-width: 1.5; }
svg line.hint { stroke: #b07aa1; stroke-dasharray: 3 3; }
svg line.hint.reported { stroke: #c7c7cc; }
.reported, .partial { color: #6e6e73; } .provenance { font-style: italic; color: #6e6e73; }
svg circle.grade { stroke: #fff; }
.diff .add { background: #e6f4ea; } .diff .del { background: #fce8e6; }
.diff .skip { color: #6e6e73; }
)";

const char* tier_class(const Event& e) { return e.built ? verdict::tier_name(e.verdict) : "build"; }

double tier_y(const Event& e) {
  const int level = e.built ? static_cast<int>(e.verdict) + 1 : 0;  // 0: did not build
  return kTop + (4 - level) * kRow;
}

void chart(const std::vector<Step>& steps, Out out) {
  int last = 0;
  for (const Step& s : steps) last = std::max(last, s.minute);
  const double span = std::max<double>(kMinutes, last + 1);
  const auto x = [&](int minute) { return kLeft + kWidth * minute / span; };
  const double height = kTop + 5 * kRow + 20;
  fmt::format_to(out, "<svg class=\"tiers\" width=\"{}\" height=\"{}\" role=\"img\">\n",
                 kLeft + kWidth + 20, height);
  const char* names[] = {"did not build", "fail", "slow", "pass", "optimal"};
  for (int level = 0; level < 5; ++level) {
    const double y = kTop + (4 - level) * kRow;
    fmt::format_to(out,
                   "<line class=\"axis\" x1=\"{}\" x2=\"{}\" y1=\"{}\" y2=\"{}\"/>"
                   "<text x=\"4\" y=\"{}\">{}</text>\n",
                   kLeft, kLeft + kWidth, y, y, y + 4, names[level]);
  }
  const int step = 5 * std::max(1, static_cast<int>(span / 5 / kLabels) + 1);
  for (int minute = 0; minute <= span; minute += step) {
    fmt::format_to(out, "<text x=\"{}\" y=\"{}\">{}</text>\n", x(minute) - 4, height - 4, minute);
  }
  std::string path;
  for (const Step& s : steps) {
    if (s.event->kind == Event::Kind::hint) {
      const bool reported = !trusted(*s.event);
      fmt::format_to(out,
                     "<line class=\"hint{}\" data-hint=\"{}\" x1=\"{}\" x2=\"{}\" y1=\"{}\" "
                     "y2=\"{}\"><title>minute {}: hint {}{}</title></line>\n",
                     reported ? " reported" : "", s.event->hint, x(s.minute), x(s.minute), kTop - 8,
                     kTop + 4 * kRow + 8, s.minute, s.event->hint,
                     reported ? ", reported by the candidate's machine" : "");
    } else if (charted(*s.event)) {
      fmt::format_to(std::back_inserter(path), "{}{} {}", path.empty() ? "M" : " L", x(s.minute),
                     tier_y(*s.event));
    }
  }
  if (!path.empty()) fmt::format_to(out, "<path class=\"path\" d=\"{}\"/>\n", path);
  for (const Step& s : steps) {
    if (!charted(*s.event)) continue;
    fmt::format_to(out,
                   "<circle class=\"grade tier-{0}\" data-tier=\"{0}\" data-version=\"{1}\" "
                   "cx=\"{2}\" cy=\"{3}\" r=\"5\" style=\"fill: currentColor\"><title>minute {4}: "
                   "version {1}, {0}{5}</title></circle>\n",
                   tier_class(*s.event), s.version, x(s.minute), tier_y(*s.event), s.minute,
                   s.event->regraded ? " (regraded here; the minute is the record's)" : "");
  }
  fmt::format_to(out, "</svg>\n");
}

void progression(const std::vector<Step>& steps, Out out) {
  fmt::format_to(out,
                 "<table class=\"progression\">\n<thead><tr><th>minute</th><th>what</th>"
                 "<th>tiers</th><th>first violation</th></tr></thead>\n<tbody>\n");
  for (const Step& s : steps) {
    const Event& e = *s.event;
    const std::string from = provenance(e);
    const std::string note =
        from.empty() ? "" : fmt::format(" <span class=\"provenance\">({})</span>", from);
    const char* reported = trusted(e) ? "" : " reported";
    if (e.kind == Event::Kind::start) {
      fmt::format_to(out,
                     "<tr class=\"start{}\"><td>{}</td><td>session started{}</td><td></td>"
                     "<td></td></tr>\n",
                     reported, s.minute, note);
    } else if (e.kind == Event::Kind::hint) {
      fmt::format_to(out,
                     "<tr class=\"hint{}\"><td>{}</td><td>hint {} {}{}</td><td></td><td></td>"
                     "</tr>\n",
                     reported, s.minute, e.hint, e.shown ? "shown" : "given aloud", note);
    } else {
      std::string tiers, first;
      for (const ScenarioLine& l : e.scenarios) {
        fmt::format_to(std::back_inserter(tiers), "{}<span class=\"tier-{}\">{} {}</span>",
                       tiers.empty() ? "" : ", ", verdict::tier_name(l.verdict), page_text(l.name),
                       verdict::tier_name(l.verdict));
        if (first.empty() && !l.violation.empty()) first = l.name + ": " + l.violation;
      }
      // A part of the set is no tier of the file: its tiers are shown, not an overall one.
      const bool part = e.built && !e.full_set;
      const std::string outcome =
          part ? fmt::format("{} only", html_escape(set_of(e)))
               : fmt::format("<span class=\"tier-{}\">{}</span>", tier_class(e),
                             e.built ? verdict::tier_name(e.verdict) : "did not build");
      fmt::format_to(out,
                     "<tr class=\"grade{}{}\"><td>{}</td><td><a href=\"#v{}\">version {}</a>, seed "
                     "{}: {}{}</td><td>{}</td><td>{}</td></tr>\n",
                     part ? " partial" : "", reported, s.minute, s.version, s.version, e.seed,
                     outcome, note, tiers, page_text(first));
    }
  }
  fmt::format_to(out, "</tbody>\n</table>\n");
}

void diff_block(const std::string& before, const std::string& after, Out out) {
  const auto lines = line_diff(before, after);
  // Show changes with a few kept lines around them; say how many kept lines are skipped.
  std::vector<bool> shown(lines.size(), false);
  for (std::size_t i = 0; i < lines.size(); ++i) {
    if (lines[i].first == ' ') continue;
    const std::size_t from = i >= kContext ? i - kContext : 0;
    for (std::size_t j = from; j < std::min(lines.size(), i + kContext + 1); ++j) shown[j] = true;
  }
  fmt::format_to(out, "<pre class=\"diff\">");
  std::size_t skipped = 0;
  for (std::size_t i = 0; i <= lines.size(); ++i) {
    if (i < lines.size() && !shown[i]) {
      ++skipped;
      continue;
    }
    if (skipped) {
      fmt::format_to(out, "<span class=\"skip\">  ({} lines unchanged)</span>\n", skipped);
      skipped = 0;
    }
    if (i == lines.size()) break;
    const char* cls = lines[i].first == '+' ? "add" : lines[i].first == '-' ? "del" : "keep";
    fmt::format_to(out, "<span class=\"{}\">{} {}</span>\n", cls, lines[i].first,
                   page_text(lines[i].second));
  }
  fmt::format_to(out, "</pre>\n");
}

// "1 hint", "2 hints".
std::string counted(int n, const char* noun) {
  return fmt::format("{} {}{}", n, noun, n == 1 ? "" : "s");
}

}  // namespace

std::vector<std::pair<char, std::string>> line_diff(const std::string& before,
                                                    const std::string& after) {
  const std::vector<std::string> a = lines_of(before), b = lines_of(after);
  std::vector<std::pair<char, std::string>> out;
  const std::size_t n = a.size(), m = b.size();
  if ((n + 1) * (m + 1) > kDiffCells) {  // too large to align: all of one, then all of the other
    for (const auto& line : a) out.emplace_back('-', line);
    for (const auto& line : b) out.emplace_back('+', line);
    return out;
  }
  // The longest common subsequence of lines, from the end, then walked from the start.
  std::vector<std::uint32_t> lcs((n + 1) * (m + 1), 0);
  const auto at = [&](std::size_t i, std::size_t j) -> std::uint32_t& {
    return lcs[i * (m + 1) + j];
  };
  for (std::size_t i = n; i-- > 0;) {
    for (std::size_t j = m; j-- > 0;) {
      at(i, j) = a[i] == b[j] ? at(i + 1, j + 1) + 1 : std::max(at(i + 1, j), at(i, j + 1));
    }
  }
  std::size_t i = 0, j = 0;
  while (i < n || j < m) {
    if (i < n && j < m && a[i] == b[j]) {
      out.emplace_back(' ', a[i++]);
      ++j;
    } else if (i < n && (j == m || at(i + 1, j) >= at(i, j + 1))) {
      out.emplace_back('-', a[i++]);  // what went before what came
    } else {
      out.emplace_back('+', b[j++]);
    }
  }
  return out;
}

std::string session_page(const std::string& exercise, const std::string& session_name,
                         const std::vector<Event>& events) {
  const std::vector<Step> steps = steps_of(events);
  std::string page;
  Out out(page);
  int grades = 0, hints = 0, versions = 0;
  const Event* last = nullptr;
  for (const Step& s : steps) {
    if (s.event->kind == Event::Kind::grade) ++grades, last = s.event;
    if (s.event->kind == Event::Kind::hint) ++hints;
    versions = std::max(versions, s.version);
  }
  const bool imported = !events.empty() && !trusted(events.front());
  fmt::format_to(out,
                 "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n"
                 "<title>overlap session: {0}</title>\n<style>{1}</style>\n</head>\n<body>\n"
                 "<h1>{0}: session {2}</h1>\n<p class=\"summary\">{3} of {5}, {4}; minutes from "
                 "the session's start{6}.</p>\n",
                 page_text(exercise), kStyle, page_text(session_name), counted(grades, "grade"),
                 counted(hints, "hint"), counted(versions, "version"),
                 imported ? ", as the candidate's machine reported them (the tiers charted are "
                            "this kit's grades of the record's files)"
                          : "");
  fmt::format_to(out,
                 "<h2>The tier over time</h2>\n<p>Grades of the default set (a run of one "
                 "scenario or another set is in the progression, not here).</p>\n");
  chart(steps, out);
  fmt::format_to(out, "<h2>Progression</h2>\n");
  progression(steps, out);
  fmt::format_to(out, "<h2>The versions graded</h2>\n");
  const std::string* previous = nullptr;
  for (const Step& s : steps) {
    if (!s.new_version) continue;
    fmt::format_to(out,
                   "<section class=\"version\" id=\"v{0}\" data-version=\"{0}\">\n<h3>version "
                   "{0}, minute {1}{2}</h3>\n",
                   s.version, s.minute, previous ? ", against the one before" : "");
    diff_block(previous ? *previous : std::string(), s.event->source, out);
    fmt::format_to(out, "</section>\n");
    previous = &s.event->source;
  }
  fmt::format_to(out, "<h2>The last report</h2>\n");
  if (last) {
    fmt::format_to(out, "<pre class=\"report\">{}</pre>\n", page_text(last->report));
  } else {
    fmt::format_to(out, "<p>No grade yet.</p>\n");
  }
  fmt::format_to(out, "</body>\n</html>\n");
  return page;
}

}  // namespace overlap::interview
