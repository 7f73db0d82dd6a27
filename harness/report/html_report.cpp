#include "html_report.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cctype>
#include <cmath>
#include <iterator>
#include <map>

#include "../verdict/verdict.hpp"

namespace overlap::report {

namespace {

// A page stays readable in a browser: past this many operations a timeline draws the first ones
// and says so (the Chrome trace has them all).
constexpr std::size_t kMaxOpsDrawn = 20000;
constexpr std::size_t kKindColours = 10;  // .k0 ... .k9 in the style sheet

// The timeline's geometry, in pixels.
constexpr double kPlotWidth = 960;
constexpr double kRightMargin = 110;  // room for the labels of marks at the right end
constexpr double kTop = 32;           // two lines of mark labels above the rows
constexpr double kRowHeight = 18;
constexpr double kRowGap = 4;
constexpr double kAxisHeight = 24;

constexpr std::string_view kStyle = R"(
:root { font-family: system-ui, sans-serif; color: #1d1d1f; background: #fff; }
body { margin: 24px; max-width: 1240px; }
h1 { font-size: 1.5em; margin: 0 0 8px; }
h2 { font-size: 1.25em; margin: 0 0 4px; }
h3 { font-size: 1em; margin: 16px 0 4px; }
code, pre { font-family: ui-monospace, monospace; font-size: 0.9em; }
dl.facts { display: grid; grid-template-columns: fit-content(40%) 1fr; gap: 2px 12px; }
dl.facts dt { color: #6e6e73; }
dl.facts dd { margin: 0; }
table { border-collapse: collapse; margin: 8px 0; }
th, td { padding: 3px 10px; text-align: left; border-bottom: 1px solid #e5e5ea; }
td.number, th.number { text-align: right; font-variant-numeric: tabular-nums; }
section.scenario { border-top: 2px solid #d2d2d7; margin-top: 28px; padding-top: 16px; }
.tier { font-weight: 600; text-transform: uppercase; }
.tier-optimal { color: #1b7f37; }
.tier-pass { color: #2f6fb3; }
.tier-slow { color: #b36b00; }
.tier-fail { color: #c4262e; }
tr.over td { color: #c4262e; font-weight: 600; }
.timeline-box { overflow-x: auto; }
svg.timeline { display: block; font-size: 11px; }
svg.timeline .lane { fill: #f5f5f7; }
svg.timeline .device-name { fill: #1d1d1f; dominant-baseline: middle; }
svg.timeline .tick { stroke: #d2d2d7; }
svg.timeline .tick-label { fill: #6e6e73; text-anchor: middle; }
svg.timeline rect.op { stroke: #fff; stroke-width: 0.5; }
svg.timeline rect.op:hover { stroke: #1d1d1f; stroke-width: 1.5; }
svg.timeline rect.op.cancelled { opacity: 0.45; }
svg.timeline rect.op.failed, svg.timeline rect.op.running { stroke: #c4262e; stroke-width: 1.5; }
.k0 { fill: #4e79a7; } .k1 { fill: #f28e2b; } .k2 { fill: #59a14f; } .k3 { fill: #b07aa1; }
.k4 { fill: #76b7b2; } .k5 { fill: #edc948; } .k6 { fill: #9c755f; } .k7 { fill: #ff9da7; }
.k8 { fill: #bab0ac; } .k9 { fill: #86bcb6; }
svg.timeline .mark line { stroke-width: 1.5; }
svg.timeline .mark.bound line { stroke: #1b7f37; stroke-dasharray: 6 3; }
svg.timeline .mark.best-known line { stroke: #2f6fb3; stroke-dasharray: 2 2; }
svg.timeline .mark.makespan line { stroke: #1d1d1f; }
svg.timeline .mark text { fill: #1d1d1f; }
svg.timeline .violation-marker line { stroke: #c4262e; stroke-width: 1.5; }
svg.timeline .violation-marker path { fill: #c4262e; }
svg.timeline .violation-marker:target line { stroke-width: 4; }
ul.legend { list-style: none; padding: 0; margin: 4px 0; display: flex; flex-wrap: wrap; }
ul.legend li { margin-right: 16px; }
ul.legend svg { vertical-align: middle; margin-right: 4px; }
ol.violations li { margin: 2px 0; }
ol.violations .message { white-space: pre-wrap; }
li:target { background: #fde8e8; }
pre.output { background: #f5f5f7; padding: 8px; white-space: pre-wrap; overflow-wrap: anywhere; }
)";

// Errors in any later script are recorded on the page, where a test (or a reader) sees them.
constexpr std::string_view kErrorRecorder = R"(
window.addEventListener('error', function (event) {
  var root = document.documentElement;
  root.dataset.errors = (root.dataset.errors ? root.dataset.errors + '; ' : '') + event.message;
});
)";

// Checks, once the page is loaded, what was drawn against what the writer said it drew, and
// that every violation's link has its marker: the result goes on <body data-selfcheck>.
constexpr std::string_view kSelfCheck = R"(
(function () {
  var problems = [];
  try {
    var timelines = document.querySelectorAll('svg.timeline');
    var rows = [];
    timelines.forEach(function (svg) {
      var name = svg.dataset.scenario;
      var devices = svg.querySelectorAll('g.device-row').length;
      rows.push(devices);
      if (String(devices) !== svg.dataset.devices) {
        problems.push(name + ': ' + devices + ' device rows drawn of ' + svg.dataset.devices);
      }
      var ops = svg.querySelectorAll('rect.op').length;
      if (String(ops) !== svg.dataset.ops) {
        problems.push(name + ': ' + ops + ' operations drawn of ' + svg.dataset.ops);
      }
    });
    if (timelines.length !== document.querySelectorAll('section.scenario').length) {
      problems.push('a scenario without its timeline');
    }
    document.querySelectorAll('ol.violations a').forEach(function (link) {
      var id = link.getAttribute('href').slice(1);
      var marker = document.getElementById(id);
      if (!marker || !marker.closest('svg.timeline')) problems.push('no marker for ' + id);
    });
    document.body.dataset.timelines = String(timelines.length);
    document.body.dataset.deviceRows = rows.join(',');
    document.body.dataset.selfcheck = problems.length ? 'failed: ' + problems.join('; ') : 'ok';
  } catch (e) {
    document.body.dataset.selfcheck = 'failed: ' + e;
  }
})();
)";

// Milliseconds to the simulator's microsecond, as short as they print: "990", "1343.022".
std::string ms(double value) { return fmt::format("{}", std::round(value * 1000) / 1000); }

// The round step (1, 2 or 5 x 10^k) that cuts [0, span] into at most `ticks` pieces.
double tick_step(double span, int ticks) {
  double unit = std::pow(10.0, std::floor(std::log10(span / ticks)));
  for (;; unit *= 10) {
    for (double step : {1.0, 2.0, 5.0}) {
      if (span / (step * unit) <= ticks) return step * unit;
    }
  }
}

// Every kind of operation on the page gets one colour, the same in every scenario.
class KindColours {
 public:
  explicit KindColours(const verdict::Report& report) {
    for (const auto& s : report.scenarios) {
      for (const auto& e : s.timeline) index_.emplace(e.kind, index_.size() % kKindColours);
    }
  }
  std::string of(const std::string& kind) const { return fmt::format("k{}", index_.at(kind)); }

 private:
  std::map<std::string, std::size_t> index_;
};

using Out = std::back_insert_iterator<std::string>;

void header(const verdict::Report& report, Out out) {
  const verdict::Provenance& p = report.provenance;
  const char* tier = verdict::tier_name(report.verdict);
  fmt::format_to(out,
                 "<header>\n<h1>overlap: <span class=\"exercise\">{}</span> <span class=\"tier "
                 "tier-{}\" id=\"overall\">{}</span></h1>\n<dl class=\"facts provenance\">\n",
                 html_escape(report.exercise), tier, verdict::tier_heading(report.verdict));
  fmt::format_to(out, "<dt>submission</dt><dd class=\"submission\"><code>{}</code></dd>\n",
                 html_escape(report.submission));
  fmt::format_to(out, "<dt>compiler</dt><dd class=\"compiler\">{}</dd>\n",
                 html_escape(report.compiler));
  fmt::format_to(out, "<dt>sha256</dt><dd><code>{}</code></dd>\n",
                 p.submission_sha256.empty() ? "unknown" : html_escape(p.submission_sha256));
  fmt::format_to(out, "<dt>kit</dt><dd><code>{}</code>{}</dd>\n", html_escape(p.kit_commit),
                 p.kit_modified ? " (modified)" : "");
  fmt::format_to(out, "<dt>time limit</dt><dd>{:g} s a scenario</dd>\n", p.time_limit_s);
  fmt::format_to(out, "<dt>sandbox</dt><dd class=\"sandbox\">{}</dd>\n",
                 p.namespaces ? "namespaces, system-call filter, limits"
                              : "<strong>without the namespaces (--no-sandbox)</strong>: "
                                "system-call filter and limits only");
  fmt::format_to(out, "<dt>seed</dt><dd class=\"seed\">{}</dd>\n</dl>\n</header>\n", report.seed);
}

void verdict_table(const verdict::Report& report, Out out) {
  fmt::format_to(out,
                 "<table class=\"verdicts\">\n<thead><tr><th>scenario</th><th>verdict</th>"
                 "<th class=\"number\">speedup</th><th class=\"number\">makespan</th>"
                 "<th class=\"number\">baseline</th><th class=\"number\">bound</th>"
                 "<th class=\"number\">best known</th></tr></thead>\n<tbody>\n");
  for (std::size_t i = 0; i < report.scenarios.size(); ++i) {
    const verdict::ScenarioResult& r = report.scenarios[i];
    const char* tier = verdict::tier_name(r.verdict);
    fmt::format_to(out,
                   "<tr class=\"verdict-row\" data-scenario=\"{0}\"><td><a href=\"#s{1}\">{0}</a>"
                   "</td><td class=\"tier tier-{2}\">{2}</td><td class=\"number\">{3}</td>"
                   "<td class=\"number\">{4}</td><td class=\"number\">{5} ms</td>"
                   "<td class=\"number\">{6} ms</td><td class=\"number\">{7} ms</td></tr>\n",
                   html_escape(r.name), i, tier,
                   r.correct ? fmt::format("{:.2f}x", r.speedup) : "&ndash;",
                   r.finished ? ms(r.makespan_ms) + " ms" : "did not finish", ms(r.baseline_ms),
                   ms(r.bound_ms), ms(r.best_known_ms));
  }
  fmt::format_to(out, "</tbody>\n</table>\n");
}

std::string verdict_sentence(const verdict::ScenarioResult& r) {
  if (!r.correct) {
    return r.finished ? "fail: the run is not correct (see the violations)"
                      : "fail: the run did not complete (see the violations)";
  }
  return fmt::format(
      "{}: correct, speedup {:.2f}x; pass needs {:.2f}x, optimal {:.2f}x (within 2% of {} ms)",
      verdict::tier_name(r.verdict), r.speedup, r.pass_speedup, r.optimal_speedup,
      ms(r.best_known_ms));
}

// A vertical line across the rows at `x`, labelled above them on line 0 or 1, to its left or right.
void mark(Out out, const char* cls, double x, double bottom, int label_line, bool label_left,
          const std::string& label, const std::string& title) {
  fmt::format_to(out,
                 "<g class=\"mark {}\"><line x1=\"{:.1f}\" y1=\"{:.1f}\" x2=\"{:.1f}\" "
                 "y2=\"{:.1f}\"/><text x=\"{:.1f}\" y=\"{}\" text-anchor=\"{}\">{}</text>"
                 "<title>{}</title></g>\n",
                 cls, x, 2.0 + 12 * label_line, x, bottom, label_left ? x - 4 : x + 4,
                 11 + 12 * label_line, label_left ? "end" : "start", html_escape(label),
                 html_escape(title));
}

void timeline(const verdict::ScenarioResult& r, std::size_t index, const KindColours& colours,
              Out out) {
  const std::size_t rows = r.utilisation.size();
  std::size_t longest_name = 0;
  for (const auto& d : r.utilisation) longest_name = std::max(longest_name, d.device.size());
  const double left = std::max(80.0, 7.0 * static_cast<double>(longest_name) + 16);
  double end = std::max({r.makespan_ms, r.bound_ms, r.best_known_ms});
  for (const auto& e : r.timeline) end = std::max(end, e.end_ms);
  for (const auto& v : r.violations) end = std::max(end, v.at_ms);
  if (!(end > 0)) end = 1;
  const auto x = [&](double t) { return left + t / end * kPlotWidth; };
  const double bottom = kTop + static_cast<double>(rows) * (kRowHeight + kRowGap);
  const double width = left + kPlotWidth + kRightMargin;
  const double height = bottom + kAxisHeight;
  const std::size_t drawn = std::min(kMaxOpsDrawn, r.timeline.size());

  fmt::format_to(out,
                 "<div class=\"timeline-box\">\n<svg class=\"timeline\" data-scenario=\"{}\" "
                 "data-devices=\"{}\" data-ops=\"{}\" xmlns=\"http://www.w3.org/2000/svg\" "
                 "width=\"{:.0f}\" height=\"{:.0f}\" viewBox=\"0 0 {:.0f} {:.0f}\" role=\"img\" "
                 "aria-label=\"timeline of {}\">\n",
                 html_escape(r.name), rows, drawn, width, height, width, height,
                 html_escape(r.name));
  // The time axis: round ticks under the rows.
  const double step = tick_step(end, 10);
  fmt::format_to(out, "<g class=\"axis\">\n");
  for (int k = 0; k * step <= end * (1 + 1e-9); ++k) {
    const double t = k * step;
    fmt::format_to(out,
                   "<line class=\"tick\" x1=\"{0:.1f}\" y1=\"{1:.1f}\" x2=\"{0:.1f}\" "
                   "y2=\"{2:.1f}\"/><text class=\"tick-label\" x=\"{0:.1f}\" y=\"{3:.1f}\">{4}"
                   "</text>\n",
                   x(t), kTop - 4, bottom + 2, bottom + 16, ms(t));
  }
  fmt::format_to(out, "<text class=\"tick-label\" x=\"{:.1f}\" y=\"{:.1f}\">ms</text>\n</g>\n",
                 x(end) + 40, bottom + 16);
  // One row per device, its operations on it.
  std::vector<std::string> row_ops(rows);
  for (std::size_t i = 0; i < drawn; ++i) {
    const verdict::TimelineEvent& e = r.timeline[i];
    if (e.device < 0 || static_cast<std::size_t>(e.device) >= rows) continue;
    const double y = kTop + e.device * (kRowHeight + kRowGap);
    fmt::format_to(std::back_inserter(row_ops[static_cast<std::size_t>(e.device)]),
                   "<rect class=\"op {} {}\" x=\"{:.2f}\" y=\"{:.1f}\" width=\"{:.2f}\" "
                   "height=\"{:.1f}\"><title>{}{}{}: {} to {} ms ({})</title></rect>\n",
                   colours.of(e.kind), html_escape(e.status), x(e.start_ms), y,
                   std::max(1.0, x(e.end_ms) - x(e.start_ms)), kRowHeight, html_escape(e.kind),
                   e.detail.empty() ? "" : " ", html_escape(e.detail), ms(e.start_ms), ms(e.end_ms),
                   html_escape(e.status));
  }
  for (std::size_t d = 0; d < rows; ++d) {
    const double y = kTop + static_cast<double>(d) * (kRowHeight + kRowGap);
    fmt::format_to(out,
                   "<g class=\"device-row\" data-device=\"{0}\">\n<rect class=\"lane\" "
                   "x=\"{1:.1f}\" y=\"{2:.1f}\" width=\"{3:.1f}\" height=\"{4:.1f}\"/>"
                   "<text class=\"device-name\" x=\"6\" y=\"{5:.1f}\">{0}</text>\n{6}</g>\n",
                   html_escape(r.utilisation[d].device), left, y, kPlotWidth, kRowHeight,
                   y + kRowHeight / 2, row_ops[d]);
  }
  // The run's end, the proven bound and the best known makespan, on the time axis.
  if (r.finished) {
    mark(out, "makespan", x(r.makespan_ms), bottom, 0, true, "makespan " + ms(r.makespan_ms),
         "makespan: " + ms(r.makespan_ms) + " ms");
  }
  mark(out, "bound", x(r.bound_ms), bottom, 0, false, "bound " + ms(r.bound_ms),
       "bound: " + ms(r.bound_ms) + " ms, a proven lower bound");
  mark(out, "best-known", x(r.best_known_ms), bottom, 1, false, "best known " + ms(r.best_known_ms),
       "best known: " + ms(r.best_known_ms) + " ms, the best makespan known");
  // Each violation at its moment: the list below links here.
  for (std::size_t k = 0; k < r.violations.size(); ++k) {
    const verdict::ViolationEntry& v = r.violations[k];
    const double vx = x(v.at_ms);
    fmt::format_to(out,
                   "<g class=\"violation-marker\" id=\"s{}-v{}\"><line x1=\"{:.1f}\" y1=\"{:.1f}\" "
                   "x2=\"{:.1f}\" y2=\"{:.1f}\"/><path d=\"M{:.1f},{:.1f} l-5,-8 h10 z\"/>"
                   "<title>{} at {} ms: {}</title></g>\n",
                   index, k, vx, kTop - 4, vx, bottom, vx, kTop - 2, html_escape(v.kind),
                   ms(v.at_ms), html_escape(v.message));
  }
  fmt::format_to(out, "</svg>\n</div>\n");
  if (drawn < r.timeline.size()) {
    fmt::format_to(out,
                   "<p class=\"note\">The first {} of {} operations are drawn; the trace "
                   "(--trace) has them all.</p>\n",
                   drawn, r.timeline.size());
  }
}

void legend(const verdict::ScenarioResult& r, const KindColours& colours, Out out) {
  std::vector<std::string> kinds;
  for (const auto& e : r.timeline) {
    if (std::find(kinds.begin(), kinds.end(), e.kind) == kinds.end()) kinds.push_back(e.kind);
  }
  fmt::format_to(out, "<ul class=\"legend\">\n");
  for (const std::string& kind : kinds) {
    fmt::format_to(out,
                   "<li><svg width=\"12\" height=\"12\"><rect class=\"{}\" width=\"12\" "
                   "height=\"12\"/></svg>{}</li>\n",
                   colours.of(kind), html_escape(kind));
  }
  fmt::format_to(out,
                 "<li>dashed green: bound</li><li>dotted blue: best known</li><li>black: "
                 "makespan</li><li>red: a violation</li>\n</ul>\n");
}

void scenario(const verdict::ScenarioResult& r, std::size_t index, const KindColours& colours,
              Out out) {
  const char* tier = verdict::tier_name(r.verdict);
  fmt::format_to(out,
                 "<section class=\"scenario\" id=\"s{}\" data-scenario=\"{}\">\n<h2>{} <span "
                 "class=\"tier tier-{}\">{}</span></h2>\n<p class=\"description\">{}</p>\n"
                 "<p class=\"verdict-line\">{}</p>\n<dl class=\"facts\">\n",
                 index, html_escape(r.name), html_escape(r.name), tier,
                 verdict::tier_heading(r.verdict), html_escape(r.description),
                 html_escape(verdict_sentence(r)));
  if (r.finished) {
    fmt::format_to(out,
                   "<dt>makespan</dt><dd>{} ms (baseline {} ms, bound {} ms, efficiency "
                   "{:.1f}%)</dd>\n",
                   ms(r.makespan_ms), ms(r.baseline_ms), ms(r.bound_ms), 100 * r.efficiency);
  }
  fmt::format_to(out, "<dt>bound</dt><dd>{}</dd>\n", html_escape(r.bound_derivation));
  if (r.hindsight_ms > 0) {
    fmt::format_to(out, "<dt>hindsight</dt><dd>{}</dd>\n",
                   html_escape(verdict::hindsight_sentence(r)));
  }
  if (!r.best_known_note.empty()) {
    fmt::format_to(out, "<dt>best known</dt><dd>{}</dd>\n", html_escape(r.best_known_note));
  }
  for (const verdict::Figure& f : r.figures) {
    fmt::format_to(out, "<dt>{}</dt><dd>{:g}{}{}</dd>\n", html_escape(f.name),
                   std::round(f.value * 1000) / 1000, f.unit.empty() ? "" : " ",
                   html_escape(f.unit));
  }
  fmt::format_to(out, "</dl>\n<h3>timeline</h3>\n");
  legend(r, colours, out);
  timeline(r, index, colours, out);

  if (r.violations_total > 0) {
    fmt::format_to(out, "<h3>violations ({})</h3>\n<ol class=\"violations\">\n",
                   r.violations_total);
    for (std::size_t k = 0; k < r.violations.size(); ++k) {
      const verdict::ViolationEntry& v = r.violations[k];
      fmt::format_to(out,
                     "<li><a href=\"#s{}-v{}\"><span class=\"kind\">{}</span> at {} ms</a>: "
                     "<span class=\"message\">{}</span></li>\n",
                     index, k, html_escape(v.kind), ms(v.at_ms), html_escape(v.message));
    }
    fmt::format_to(out, "</ol>\n");
    if (r.violations_total > r.violations.size()) {
      fmt::format_to(out, "<p class=\"note\">... and {} more (all kinds listed in --json)</p>\n",
                     r.violations_total - r.violations.size());
    }
  }
  if (!r.peak_memory.empty()) {
    fmt::format_to(out,
                   "<h3>peak memory</h3>\n<table class=\"memory\">\n<thead><tr><th>pool</th>"
                   "<th class=\"number\">peak</th><th class=\"number\">budget</th><th>unit</th>"
                   "</tr></thead>\n<tbody>\n");
    for (const verdict::MemoryPeak& m : r.peak_memory) {
      fmt::format_to(out,
                     "<tr{}><td>{}</td><td class=\"number\">{:g}</td><td class=\"number\">{:g}"
                     "</td><td>{}{}</td></tr>\n",
                     m.peak > m.budget ? " class=\"over\"" : "", html_escape(m.pool), m.peak,
                     m.budget, html_escape(m.unit), m.peak > m.budget ? " (over)" : "");
    }
    fmt::format_to(out, "</tbody>\n</table>\n");
  }
  if (r.finished && !r.utilisation.empty()) {
    fmt::format_to(out,
                   "<h3>utilisation</h3>\n<table class=\"utilisation\">\n<thead><tr>"
                   "<th>device</th><th class=\"number\">busy</th><th class=\"number\">of the "
                   "makespan</th></tr></thead>\n<tbody>\n");
    for (const verdict::DeviceUse& d : r.utilisation) {
      fmt::format_to(out,
                     "<tr><td>{}</td><td class=\"number\">{} ms</td><td class=\"number\">"
                     "{:.0f}%</td></tr>\n",
                     html_escape(d.device), ms(d.busy_ms), 100 * d.utilisation);
    }
    fmt::format_to(out, "</tbody>\n</table>\n");
  }
  if (!r.output.empty()) {  // escaped by the judge for a terminal, here for the page
    fmt::format_to(out,
                   "<h3>output</h3>\n<p class=\"note\">the submission's stdout and stderr</p>\n"
                   "<pre class=\"output\">{}</pre>\n",
                   html_escape(r.output));
  }
  fmt::format_to(out, "</section>\n");
}

}  // namespace

std::string html_escape(std::string_view text) {
  std::string out;
  out.reserve(text.size());
  for (const char c : text) {
    switch (c) {
      case '&':
        out += "&amp;";
        break;
      case '<':
        out += "&lt;";
        break;
      case '>':
        out += "&gt;";
        break;
      case '"':
        out += "&quot;";
        break;
      case '\'':
        out += "&#39;";
        break;
      default:
        out += c;
    }
  }
  return out;
}

std::string html_page(const verdict::Report& report) {
  std::string page;
  Out out(page);
  const KindColours colours(report);
  // Nothing is fetched: the policy allows the page's own style and scripts and nothing else.
  fmt::format_to(out,
                 "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n"
                 "<meta http-equiv=\"Content-Security-Policy\" content=\"default-src 'none'; "
                 "style-src 'unsafe-inline'; script-src 'unsafe-inline'; img-src data:\">\n"
                 "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n"
                 "<link rel=\"icon\" href=\"data:,\">\n<title>overlap: {}: {}</title>\n",
                 html_escape(report.exercise), verdict::tier_heading(report.verdict));
  page += "<style>";
  page += kStyle;
  page += "</style>\n<script>";
  page += kErrorRecorder;
  page += "</script>\n</head>\n<body data-selfcheck=\"pending\">\n";
  header(report, out);
  fmt::format_to(out, "<main>\n");
  verdict_table(report, out);
  for (std::size_t i = 0; i < report.scenarios.size(); ++i) {
    scenario(report.scenarios[i], i, colours, out);
  }
  page += "</main>\n<script>";
  page += kSelfCheck;
  page += "</script>\n</body>\n</html>";
  return page;
}

}  // namespace overlap::report
