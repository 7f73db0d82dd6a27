#include "score_rule.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <boost/describe/enum_from_string.hpp>
#include <boost/json.hpp>
#include <fstream>
#include <numeric>
#include <set>
#include <sstream>
#include <stdexcept>

#include "../verdict/verdict.hpp"

namespace overlap::interview {

namespace json = boost::json;

namespace {

[[noreturn]] void malformed(const std::string& what) {
  throw std::runtime_error("the score rule: " + what);
}

const json::value& at(const json::object& o, std::string_view key, const std::string& where) {
  const json::value* v = o.if_contains(key);
  if (!v) malformed(fmt::format("{} has no \"{}\"", where, key));
  return *v;
}

int integer(const json::value& v, const std::string& where) {
  if (!v.is_int64()) malformed(where + " is not a whole number");
  return static_cast<int>(v.get_int64());
}

std::string text(const json::object& o, std::string_view key, const std::string& where,
                 bool required = true) {
  const json::value* v = o.if_contains(key);
  if (!v) {
    if (required) malformed(fmt::format("{} has no \"{}\"", where, key));
    return "";
  }
  if (!v->is_string()) malformed(fmt::format("{}'s \"{}\" is not text", where, key));
  return std::string(v->get_string());
}

Tier tier_of(const std::string& name, const std::string& where) {
  Tier t{};
  if (!boost::describe::enum_from_string(name.c_str(), t)) {
    malformed(fmt::format("{}: '{}' is no tier (fail, slow, pass, optimal)", where, name));
  }
  return t;
}

Format read_format(const std::string& name, const json::object& o) {
  Format f;
  f.name = name;
  const std::string where = "format " + name;
  f.minutes = integer(at(o, "minutes", where), where + " minutes");
  const json::object& code = at(o, "code", where).as_object();
  for (const auto& [tier, points] : at(code, "points", where + " code").as_object()) {
    f.code.points[std::string(tier)] = integer(points, where + " code points");
  }
  for (const char* key : {"none", "fail", "slow", "pass", "optimal"}) {
    if (!f.code.points.contains(key)) malformed(where + " gives no code points for " + key);
  }
  f.code.explained_gap = integer(at(code, "explained_gap", where), where + " explained_gap");
  f.code.insight_hint = integer(at(code, "insight_hint", where), where + " insight_hint");
  f.code.unseen_fail_cap = integer(at(code, "unseen_fail_cap", where), where + " unseen_fail_cap");
  for (const json::value& d : at(o, "dimensions", where).as_array()) {
    const json::object& dim = d.as_object();
    Dimension out;
    out.name = text(dim, "name", where + " dimension");
    const std::string dwhere = where + " dimension " + out.name;
    out.column = text(dim, "column", dwhere);
    out.unit = text(dim, "unit", dwhere, false);
    out.min = integer(at(dim, "min", dwhere), dwhere + " min");
    out.max = integer(at(dim, "max", dwhere), dwhere + " max");
    if (dim.contains("yes")) {
      if (out.min != 0 || out.max != 1) malformed(dwhere + ": a yes/no sub-score is 0 or 1");
      out.yes = text(dim, "yes", dwhere);
      out.no = text(dim, "no", dwhere);
      out.yes_no = true;
    }
    if (out.min > out.max) malformed(dwhere + ": min above max");
    f.dimensions.push_back(std::move(out));
  }
  for (const json::value& r : at(o, "outcomes", where).as_array()) {
    const json::object& row = r.as_object();
    Outcome out;
    out.name = text(row, "name", where + " outcome");
    for (const auto& band : at(row, "bands", where + " " + out.name).as_object()) {
      const std::string dim(band.key());
      const json::value& range = band.value();
      const std::string bwhere = fmt::format("{} {} band {}", where, out.name, dim);
      const auto known = std::find_if(f.dimensions.begin(), f.dimensions.end(),
                                      [&](const Dimension& d) { return d.name == dim; });
      if (known == f.dimensions.end()) malformed(bwhere + ": no such dimension");
      const json::array& pair = range.as_array();
      if (pair.size() != 2) malformed(bwhere + " is not [low, high]");
      Band b{integer(pair[0], bwhere), integer(pair[1], bwhere)};
      if (b.low > b.high || b.low < known->min || b.high > known->max) {
        malformed(bwhere + " is outside the dimension's range or empty");
      }
      out.bands[dim] = b;
    }
    f.outcomes.push_back(std::move(out));
  }
  if (f.outcomes.empty()) malformed(where + " has no outcomes");
  f.reading = text(o, "reading", where);
  return f;
}

Anchor read_anchor(const json::object& o, const std::string& where) {
  Anchor a;
  a.name = text(o, "name", where);
  const std::string awhere = where + " " + a.name;
  a.outcome = text(o, "outcome", awhere);
  a.says = text(o, "says", awhere);
  a.program = text(o, "program", awhere);
  a.verdict = tier_of(text(o, "verdict", awhere), awhere);
  if (const json::value* h = o.if_contains("hints")) a.hints = integer(*h, awhere + " hints");
  if (const json::value* b = o.if_contains("one_below")) a.one_below = b->as_bool();
  if (const json::value* b = o.if_contains("explained")) a.explained = b->as_bool();
  if (const json::value* s = o.if_contains("scores")) {
    for (const auto& [dim, v] : s->as_object()) a.scores[std::string(dim)] = integer(v, awhere);
  }
  return a;
}

// A band as the card writes it: "4", "≥ 3", "≤ 1", "1–2", or a yes/no sub-score's words.
std::string band_text(const Dimension& d, const Band& b) {
  if (d.yes_no) return b.low == 1 ? d.yes : d.no;
  std::string range = b.low == b.high   ? fmt::format("{}", b.low)
                      : b.low == d.min  ? fmt::format("≤ {}", b.high)
                      : b.high == d.max ? fmt::format("≥ {}", b.low)
                                        : fmt::format("{}–{}", b.low, b.high);
  return d.unit.empty() ? range : range + " " + d.unit;
}

void known_format(const ScoreRule& rule, const std::string& format, const std::string& where) {
  if (!rule.formats.contains(format)) {
    malformed(fmt::format("{} name format {}, which the rule lacks", where, format));
  }
}

}  // namespace

const std::string* ExerciseRule::scenario_of(const std::string& format) const {
  const auto it = scenario.find(format);
  return it == scenario.end() ? nullptr : &it->second;
}

const Format& ScoreRule::format(const std::string& name) const {
  const auto it = formats.find(name);
  if (it == formats.end()) malformed("no format " + name);
  return it->second;
}

const ExerciseRule& ScoreRule::exercise(const std::string& name) const {
  const auto it = exercises.find(name);
  if (it == exercises.end()) malformed("no exercise " + name);
  return it->second;
}

ScoreRule parse_score_rule(const std::string& json_text) {
  json::value root;
  try {
    root = json::parse(json_text);
  } catch (const std::exception& e) {
    malformed(std::string("not JSON: ") + e.what());
  }
  ScoreRule rule;
  try {
    for (const auto& [name, f] : at(root.as_object(), "formats", "the file").as_object()) {
      rule.formats.emplace(std::string(name), read_format(std::string(name), f.as_object()));
    }
    for (const auto& [name, e] : at(root.as_object(), "exercises", "the file").as_object()) {
      const std::string where = "exercise " + std::string(name);
      ExerciseRule out;
      out.first_insight_hint =
          integer(at(e.as_object(), "first_insight_hint", where), where + " first_insight_hint");
      for (const auto& [format, list] : at(e.as_object(), "anchors", where).as_object()) {
        known_format(rule, std::string(format), where + " anchors");
        for (const json::value& a : list.as_array()) {
          out.anchors[std::string(format)].push_back(read_anchor(a.as_object(), where));
        }
      }
      const json::object& ex = e.as_object();
      if (const json::value* by_format = ex.if_contains("scenario")) {
        for (const auto& [format, scenario] : by_format->as_object()) {
          known_format(rule, std::string(format), where + " scenario");
          out.scenario[std::string(format)] = std::string(scenario.as_string());
        }
      }
      if (const json::value* by_format = ex.if_contains("hints")) {
        for (const auto& [format, list] : by_format->as_object()) {
          known_format(rule, std::string(format), where + " hints");
          for (const json::value& h : list.as_array()) {
            const int n = integer(h, where + " hints");
            if (n < 1) malformed(where + " hints: hints count from 1");
            out.hints[std::string(format)].push_back(n);
          }
        }
      }
      rule.exercises.emplace(std::string(name), std::move(out));
    }
  } catch (const std::runtime_error&) {
    throw;                             // already says what is malformed
  } catch (const std::exception& e) {  // as_object() and kin on the wrong kind of value
    malformed(std::string("a value of the wrong kind: ") + e.what());
  }
  return rule;
}

ScoreRule read_score_rule(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) throw std::runtime_error("cannot read the score rule " + path);
  std::ostringstream text;
  text << in.rdbuf();
  return parse_score_rule(text.str());
}

SubScore code_score(const CodeRule& rule, const ExerciseRule& exercise, const CodeInputs& in) {
  if (in.tiers.empty()) {
    return {rule.points.at("none"), "no version built"};
  }
  const Tier worst = *std::min_element(in.tiers.begin(), in.tiers.end());
  int value = rule.points.at(tier_name(worst));
  std::string reason = fmt::format("final tier {}", tier_name(worst));
  const auto at_worst = std::count(in.tiers.begin(), in.tiers.end(), worst);
  if (worst != Tier::fail && at_worst == 1 && in.tiers.size() > 1) {
    if (in.gap_explained) {
      value += rule.explained_gap;
      reason += fmt::format(" in one scenario alone, explained: +{}", rule.explained_gap);
    } else {
      reason += " in one scenario alone, not explained";
    }
  }
  if (in.first_insight_hint_given > 0) {
    value -= rule.insight_hint;
    reason +=
        fmt::format("; Hint {} given (insight hints from Hint {}): -{}",
                    in.first_insight_hint_given, exercise.first_insight_hint, rule.insight_hint);
  }
  if (in.unseen == Tier::fail && value > rule.unseen_fail_cap) {
    value = rule.unseen_fail_cap;
    reason += fmt::format("; fails on a seed never seen: at most {}", rule.unseen_fail_cap);
  }
  value = std::clamp(value, rule.points.at("none"), rule.points.at("optimal"));
  return {value, reason};
}

std::optional<std::size_t> row_of(const Format& f, const std::string& dimension, int value) {
  std::optional<std::size_t> found;
  for (std::size_t r = 0; r < f.outcomes.size(); ++r) {
    const auto it = f.outcomes[r].bands.find(dimension);
    if (it == f.outcomes[r].bands.end() || !it->second.contains(value)) continue;
    if (found) return std::nullopt;  // two rows: the data overlaps
    found = r;
  }
  return found;
}

std::vector<std::size_t> outcomes_holding(const Format& f,
                                          const std::map<std::string, int>& scores) {
  std::vector<std::size_t> out;
  for (std::size_t r = 0; r < f.outcomes.size(); ++r) {
    // Row r holds: every sub-score in row r or above, and one at least in row r itself.
    bool all_at_or_above = true, one_here = false;
    for (const Dimension& d : f.dimensions) {
      const auto value = scores.find(d.name);
      if (value == scores.end()) malformed("no sub-score " + d.name);
      bool here = false, above = false;
      for (std::size_t q = 0; q <= r; ++q) {
        const auto band = f.outcomes[q].bands.find(d.name);
        if (band == f.outcomes[q].bands.end() || !band->second.contains(value->second)) continue;
        (q == r ? here : above) = true;
      }
      all_at_or_above = all_at_or_above && (here || above);
      one_here = one_here || here;
    }
    if (all_at_or_above && one_here) out.push_back(r);
  }
  return out;
}

std::string card_table(const Format& f, const std::vector<Anchor>& anchors) {
  std::vector<std::string> columns;
  for (const Dimension& d : f.dimensions) {
    if (std::find(columns.begin(), columns.end(), d.column) == columns.end()) {
      columns.push_back(d.column);
    }
  }
  std::string out = "| outcome";
  for (const std::string& c : columns) out += " | " + c;
  out += " | for example |\n|";
  for (std::size_t i = 0; i < columns.size() + 2; ++i) out += " --- |";
  out += '\n';
  for (const Outcome& o : f.outcomes) {
    out += "| " + o.name;
    for (const std::string& c : columns) {
      std::vector<std::string> parts;
      for (const Dimension& d : f.dimensions) {
        const auto band = o.bands.find(d.name);
        if (d.column != c || band == o.bands.end()) continue;
        if (std::string t = band_text(d, band->second); !t.empty()) parts.push_back(t);
      }
      out += " | " + fmt::format("{}", fmt::join(parts, "; "));
    }
    std::vector<std::string> examples;
    for (const Anchor& a : anchors) {
      if (a.outcome == o.name) examples.push_back(a.says);
    }
    out += " | " + fmt::format("{}", fmt::join(examples, "; or ")) + " |\n";
  }
  return out;
}

namespace {

// The sub-scores the kit computes from marks, and the option of `score` each reads.
struct MarkInput {
  std::string_view dimension, option;
  int (*score)(const Marks&);
};
constexpr MarkInput kMarkInputs[] = {
    {"misunderstanding defended", "--defended", [](const Marks& m) { return m.defended ? 1 : 0; }},
    {"design", "--predictions",
     [](const Marks& m) { return std::accumulate(m.predictions.begin(), m.predictions.end(), 0); }},
    {"communication", "--communication", [](const Marks& m) { return m.communication; }},
    {"weak follow-ups", "--follow-ups",
     [](const Marks& m) { return weak_follow_ups(m.follow_ups); }},
    {"half the follow-up points", "--follow-ups",
     [](const Marks& m) { return half_the_points(m.follow_ups); }},
    {"approach", "--approach", [](const Marks& m) { return m.approach; }},
    {"debrief", "--debrief", [](const Marks& m) { return m.debrief; }},
};

const MarkInput& input_of(const std::string& dimension) {
  for (const MarkInput& in : kMarkInputs) {
    if (in.dimension == dimension) return in;
  }
  malformed("the sub-score '" + dimension + "' is none the kit computes");
}

}  // namespace

std::string option_of(const std::string& dimension) {
  return dimension == "code" ? "" : std::string(input_of(dimension).option);
}

std::vector<std::string> marks_needed(const Format& f) {
  std::vector<std::string> out;
  for (const Dimension& d : f.dimensions) {
    const std::string option = option_of(d.name);
    if (option.empty() || d.yes_no) continue;  // from the session, or a flag (absent: no)
    if (std::find(out.begin(), out.end(), option) == out.end()) out.push_back(option);
  }
  return out;
}

std::map<std::string, int> sub_scores(const Format& f, int code, const Marks& marks) {
  std::map<std::string, int> out;
  for (const Dimension& d : f.dimensions) {
    out[d.name] = d.name == "code" ? code : input_of(d.name).score(marks);
  }
  return out;
}

namespace {

// One question of the marks: its slots in a GivenMarks, the most each may be, the value that
// leaves its cell at its best, and how to say a condition on it.
struct Question {
  std::vector<Given*> slots;
  int most = 2;
  int best = 2;
  std::string (*when)(const std::string& values);
};

// "0–1", "0, 2": a sorted set of values, runs shortened.
std::string values_text(const std::set<int>& values) {
  std::vector<std::string> parts;
  for (auto it = values.begin(); it != values.end();) {
    int last = *it;
    auto next = std::next(it);
    while (next != values.end() && *next == last + 1) last = *next++;
    parts.push_back(last == *it ? std::to_string(*it) : fmt::format("{}–{}", *it, last));
    it = next;
  }
  return fmt::format("{}", fmt::join(parts, ", "));
}

std::vector<Question> questions_of(GivenMarks& m) {
  std::vector<Question> out;
  const auto slots = [](std::vector<Given>& v) {
    std::vector<Given*> p;
    for (Given& g : v) p.push_back(&g);
    return p;
  };
  out.push_back({slots(m.predictions), 2, 2,
                 [](const std::string& v) { return "the predictions add up to " + v; }});
  out.push_back(
      {{&m.communication}, 2, 2, [](const std::string& v) { return "communication is " + v; }});
  out.push_back({slots(m.follow_ups), 2, 2,
                 [](const std::string& v) { return "the follow-ups add up to " + v; }});
  out.push_back({{&m.approach}, 2, 2, [](const std::string& v) { return "the approach is " + v; }});
  out.push_back({{&m.debrief}, 2, 2, [](const std::string& v) { return "the debrief is " + v; }});
  out.push_back({{&m.defended}, 1, 0, [](const std::string&) {
                   return std::string("a misunderstanding was defended");
                 }});
  out.push_back({{&m.gap_explained}, 1, 1, [](const std::string&) {
                   return std::string("the slower scenario goes unexplained");
                 }});
  // Only the slots not asked are the question's to fill.
  for (Question& q : out) {
    std::erase_if(q.slots, [](const Given* g) { return g->has_value(); });
  }
  std::erase_if(out, [](const Question& q) { return q.slots.empty(); });
  return out;
}

Marks complete(const GivenMarks& g) {
  Marks m;
  for (const Given& p : g.predictions) m.predictions.push_back(p.value_or(0));
  for (const Given& f : g.follow_ups) m.follow_ups.push_back(f.value_or(0));
  m.communication = g.communication.value_or(0);
  m.approach = g.approach.value_or(0);
  m.debrief = g.debrief.value_or(0);
  m.defended = g.defended.value_or(0) == 1;
  return m;
}

std::size_t row_for(const Format& f, const std::function<int(bool)>& code, const GivenMarks& g) {
  const std::vector<std::size_t> rows =
      outcomes_holding(f, sub_scores(f, code(g.gap_explained.value_or(0) == 1), complete(g)));
  if (rows.size() != 1) malformed("the rule gives no single outcome for some marks");
  return rows.front();
}

// Calls `each` with every filling of `slots` with values 0..most.
void fill(const std::vector<Given*>& slots, int most, const std::function<void()>& each,
          std::size_t from = 0) {
  if (from == slots.size()) return each();
  for (int v = 0; v <= most; ++v) {
    *slots[from] = v;
    fill(slots, most, each, from + 1);
  }
}

}  // namespace

Marks as_blank_cells(const GivenMarks& given) {
  GivenMarks m = given;
  for (const Question& q : questions_of(m)) {
    for (Given* slot : q.slots) *slot = q.best;
  }
  return complete(m);
}

Reading read_marks(const Format& f, const std::function<int(bool)>& code, const GivenMarks& given) {
  GivenMarks m = given;
  const std::vector<Question> questions = questions_of(m);
  for (const Question& q : questions) {
    for (Given* slot : q.slots) *slot = q.best;
  }
  Reading r;
  r.outcome = r.lowest = row_for(f, code, m);
  std::vector<Given*> all;
  for (const Question& q : questions) all.insert(all.end(), q.slots.begin(), q.slots.end());
  // Every filling: flags (most 1) and marks (most 2) alike, the flags' 2 read as 1.
  fill(all, 2, [&] {
    GivenMarks filled = m;
    for (Given* g : {&filled.defended, &filled.gap_explained}) *g = std::min(**g, 1);
    r.lowest = std::max(r.lowest, row_for(f, code, filled));
  });
  // Each question alone, the others at their best: when it lowers the outcome.
  for (const Question& q : questions) {
    for (const Question& other : questions) {
      for (Given* slot : other.slots) *slot = other.best;
    }
    std::map<std::size_t, std::set<int>> lowered;  // outcome -> the question's sums giving it
    fill(q.slots, q.most, [&] {
      const std::size_t row = row_for(f, code, m);
      if (row == r.outcome) return;
      int sum = 0;
      for (const Given* slot : q.slots) sum += **slot;
      lowered[row].insert(sum);
    });
    for (const auto& [row, sums] : lowered) r.deciding.push_back({row, q.when(values_text(sums))});
  }
  return r;
}

int weak_follow_ups(const std::vector<int>& follow_ups) {
  return static_cast<int>(std::count(follow_ups.begin(), follow_ups.end(), 0));
}

int half_the_points(const std::vector<int>& follow_ups) {
  int points = 0;
  for (int p : follow_ups) points += p;
  return points >= static_cast<int>(follow_ups.size()) ? 1 : 0;  // half of 2 points each
}

}  // namespace overlap::interview
