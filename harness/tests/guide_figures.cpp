// Checks an interviewer guide against the grader: every figure in its checked tables equals what
// the grader reported, its card fits one printed page, quotes every hint word for word and gives
// the intro (two sentences) and the prediction questions, and its page two fits a printed page
// with every follow-up question's good and weak answers.
//
//   overlap-guide-figures EXERCISE GUIDE HINTS REPORTS KIT
//
// A checked table is a Markdown table right after a line `<!-- checked: TEST [TEST...] -->`, each
// TEST a ctest test that wrote REPORTS/TEST/report.json. Its rows are keyed by a `scenario` column
// (figures of that scenario: baseline, bound, best known, tier lines, the reference's makespan, a
// makespan of the test the column names, and parameters) or by a `kit file` column (a program of
// the kit, graded by its own test: verdicts, violation kinds and makespans per scenario). The
// card's score table, after
// `<!-- score table: FORMAT -->`, is the one guides/score.json generates (with the sentence that
// reads it), and the anchors table, after `<!-- anchors: FORMAT -->`, lists every anchor of the
// exercise with its overall tier on the default set, as the data says and as its test
// anchor.EXERCISE.NAME graded it. Exit 0 when everything holds, 1 with every disagreement listed
// otherwise.
#include <fmt/format.h>

#include <algorithm>
#include <boost/json.hpp>
#include <cctype>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <map>
#include <optional>
#include <regex>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include "../interview/score_rule.hpp"
#include "../verdict/verdict.hpp"

namespace json = boost::json;
namespace fs = std::filesystem;

namespace {

constexpr int kCardWordLimit = 950;  // one printed page, tables included

std::vector<std::string> errors;

template <typename... Args>
void error(int line, const std::string& guide, fmt::format_string<Args...> f, Args&&... args) {
  errors.push_back(
      fmt::format("{}:{}: {}", guide, line, fmt::format(f, std::forward<Args>(args)...)));
}

std::string read_file(const fs::path& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) throw std::runtime_error("cannot read " + path.string());
  std::ostringstream text;
  text << in.rdbuf();
  return text.str();
}

std::vector<std::string> lines_of(const std::string& text) {
  std::vector<std::string> out;
  std::istringstream in(text);
  for (std::string line; std::getline(in, line);) out.push_back(line);
  return out;
}

std::string lower(std::string s) {
  for (char& c : s) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return s;
}

std::string trim(const std::string& s) {
  const auto begin = s.find_first_not_of(" \t");
  if (begin == std::string::npos) return "";
  return s.substr(begin, s.find_last_not_of(" \t") - begin + 1);
}

// Whitespace runs as one space: quotes are compared across line breaks.
std::string squeeze(const std::string& s) {
  std::string out;
  bool space = false;
  for (char c : s) {
    if (std::isspace(static_cast<unsigned char>(c))) {
      space = !out.empty();
    } else {
      if (space) out += ' ';
      out += c;
      space = false;
    }
  }
  return out;
}

// A table row's cells: split at `|` outside backticks (`a || b` stays one cell).
std::vector<std::string> cells_of(const std::string& row) {
  std::vector<std::string> out;
  std::string cell;
  bool code = false;
  std::string body = trim(row);
  if (body.starts_with('|')) body.erase(0, 1);
  if (body.ends_with('|')) body.pop_back();
  for (std::size_t i = 0; i < body.size(); ++i) {
    const char c = body[i];
    if (c == '`') code = !code;
    if (c == '\\' && i + 1 < body.size() && body[i + 1] == '|') {
      cell += '|';
      ++i;
    } else if (c == '|' && !code) {
      out.push_back(trim(cell));
      cell.clear();
    } else {
      cell += c;
    }
  }
  out.push_back(trim(cell));
  return out;
}

// The backticked spans of a cell, and the rest of it.
struct Cell {
  std::vector<std::string> code;
  std::string prose;
};
Cell split_code(const std::string& cell) {
  Cell out;
  std::size_t at = 0;
  while (at < cell.size()) {
    const auto open = cell.find('`', at);
    if (open == std::string::npos) break;
    const auto close = cell.find('`', open + 1);
    if (close == std::string::npos) break;
    out.prose += cell.substr(at, open - at) + ' ';
    out.code.push_back(cell.substr(open + 1, close - open - 1));
    at = close + 1;
  }
  out.prose += cell.substr(std::min(at, cell.size()));
  return out;
}

// A number as written, with its precision and whether it is a speedup ("2.85×").
struct Number {
  double value = 0;
  double tolerance = 0;
  bool speedup = false;
  std::string text;
};
std::vector<Number> numbers_in(const std::string& prose) {
  static const std::regex number(R"((^|[^\w.\-])(-?\d+(?:\.(\d+))?)(\s*(?:×|x\b))?)");
  std::vector<Number> out;
  for (auto it = std::sregex_iterator(prose.begin(), prose.end(), number);
       it != std::sregex_iterator(); ++it) {
    const std::smatch& m = *it;
    Number n;
    n.text = m[2].str();
    n.value = std::stod(n.text);
    n.tolerance = 0.5 * std::pow(10.0, -static_cast<int>(m[3].length())) + 1e-9;
    n.speedup = m[4].matched;
    out.push_back(n);
  }
  return out;
}

bool close_to(const Number& n, double actual) { return std::abs(n.value - actual) <= n.tolerance; }

const std::set<std::string> kTiers = {"fail", "slow", "pass", "optimal"};

std::optional<std::string> tier_in(const Cell& cell) {
  for (const std::string& c : cell.code) {
    if (kTiers.contains(lower(c))) return lower(c);
  }
  static const std::regex word(R"(\b(fail|slow|pass|optimal)\b)");
  std::smatch m;
  if (std::regex_search(cell.prose, m, word)) return m[1].str();
  return std::nullopt;
}

// The reports the guide's tables name, read once.
class Reports {
 public:
  explicit Reports(fs::path dir) : dir_(std::move(dir)) {}

  const json::object* get(const std::string& test) {
    auto it = cache_.find(test);
    if (it == cache_.end()) {
      const fs::path file = dir_ / test / "report.json";
      std::optional<json::value> value;
      if (fs::exists(file)) value = json::parse(read_file(file));
      it = cache_.emplace(test, std::move(value)).first;
    }
    return it->second ? &it->second->as_object() : nullptr;
  }

  static const json::object* scenario(const json::object& report, const std::string& name) {
    for (const json::value& s : report.at("scenarios").as_array()) {
      if (s.as_object().at("name").as_string() == name) return &s.as_object();
    }
    return nullptr;
  }

 private:
  fs::path dir_;
  std::map<std::string, std::optional<json::value>> cache_;
};

double number(const json::object& o, const char* key) { return o.at(key).to_number<double>(); }

double steps_of(const json::object& scenario) {
  for (const json::value& p : scenario.at("parameters").as_array()) {
    if (p.as_object().at("name").as_string() == "steps") {
      return p.as_object().at("values").as_array().at(0).to_number<double>();
    }
  }
  return 1;
}

std::set<std::string> kinds_of(const json::object& scenario) {
  std::set<std::string> out;
  for (const json::value& v : scenario.at("violations").as_array()) {
    out.insert(std::string(v.as_object().at("kind").as_string()));
  }
  return out;
}

// What a table's row and column say about one scenario of one report.
struct Where {
  std::string guide;
  int line = 0;
  std::string row, column;
};

class Checker {
 public:
  Checker(std::string exercise, std::string guide, Reports& reports, fs::path kit)
      : exercise_(std::move(exercise)),
        guide_(std::move(guide)),
        reports_(reports),
        kit_(std::move(kit)) {}

  int figures() const { return figures_; }

  // A time (makespan, bound, ...) and the speedup baseline / time, as the cell writes them.
  void time(const Where& w, const Cell& cell, double actual_ms, double baseline_ms, double scale) {
    bool any = false;
    for (const Number& n : numbers_in(cell.prose)) {
      const double actual = n.speedup ? baseline_ms / actual_ms : actual_ms / scale;
      if (!n.speedup && any) continue;  // the first time is the figure; the rest is prose
      if (!close_to(n, actual)) {
        error(w.line, w.guide, "row {}, column {}: the guide says {}{}, the grader {:.4g}", w.row,
              w.column, n.text, n.speedup ? "×" : "", actual);
      }
      ++figures_;
      if (!n.speedup) any = true;
    }
    if (!any) error(w.line, w.guide, "row {}, column {}: no figure to check", w.row, w.column);
  }

  void tier(const Where& w, const Cell& cell, const std::string& actual, bool required) {
    const auto said = tier_in(cell);
    if (!said) {
      if (required) error(w.line, w.guide, "row {}, column {}: no verdict", w.row, w.column);
      return;
    }
    ++figures_;
    if (*said != actual) {
      error(w.line, w.guide, "row {}, column {}: the guide says {}, the grader {}", w.row, w.column,
            *said, actual);
    }
  }

  // A table whose rows are scenarios, with figures from the reports the marker names.
  void scenario_table(int line, const std::vector<std::string>& tests,
                      const std::vector<std::string>& header,
                      const std::vector<std::vector<std::string>>& rows, std::size_t key) {
    for (std::size_t r = 0; r < rows.size(); ++r) {
      const int row_line = line + 2 + static_cast<int>(r);
      const Cell key_cell = split_code(rows[r][key]);
      if (key_cell.code.empty()) {
        error(row_line, guide_, "the scenario cell names no `scenario`");
        continue;
      }
      const std::string name = key_cell.code.front();
      const json::object* any = nullptr;
      const json::object* reference = nullptr;
      for (const std::string& test : tests) {
        const json::object* report = reports_.get(test);
        if (!report) continue;
        const json::object* s = Reports::scenario(*report, name);
        if (!s) continue;
        if (!any) any = s;
        if (!reference && test.starts_with("solution.")) reference = s;
      }
      if (!any) {
        error(row_line, guide_, "no report of {} graded scenario {}", fmt::join(tests, ", "), name);
        continue;
      }
      const double baseline = number(*any, "baseline_ms");
      for (std::size_t c = 0; c < header.size() && c < rows[r].size(); ++c) {
        if (c == key) continue;
        const std::string h = lower(header[c]);
        const Cell cell = split_code(rows[r][c]);
        const Where w{guide_, row_line, name, header[c]};
        if (h.find("(by hand)") != std::string::npos) continue;
        const double scale = h.find("per step") != std::string::npos ? steps_of(*any) : 1;
        bool recognised = false;
        auto check_time = [&](double actual) {
          recognised = true;
          time(w, cell, actual, baseline, scale);
        };
        if (h.find("baseline") != std::string::npos || h.find("starter") != std::string::npos) {
          check_time(baseline);
        }
        if (h.find("bound") != std::string::npos) check_time(number(*any, "bound_ms"));
        if (h.find("best known") != std::string::npos || h.find("optimum") != std::string::npos) {
          check_time(number(*any, "best_known_ms"));
        }
        if (h.find("pass") != std::string::npos) {
          check_time(baseline / number(*any, "pass_speedup"));
        } else if (h.find("optimal") != std::string::npos) {
          check_time(baseline / number(*any, "optimal_speedup"));
        }
        if (h.find("reference") != std::string::npos || h.find("makespan") != std::string::npos) {
          const json::object* s =
              h.find("reference") != std::string::npos ? reference : named_in(h, tests, name);
          if (!s) s = any;
          recognised = true;
          if (!s) {
            error(row_line, guide_, "column {}: no solution report graded {}", header[c], name);
            continue;
          }
          if (numbers_in(cell.prose).empty() && tier_in(cell)) {
            tier(w, cell, std::string(s->at("verdict").as_string()), true);
          } else {
            time(w, cell, number(*s, "makespan_ms"), baseline, scale);
            tier(w, cell, std::string(s->at("verdict").as_string()), false);
          }
        }
        if (h.find("verdict") != std::string::npos) {
          recognised = true;
          tier(w, cell, std::string(any->at("verdict").as_string()), true);
        }
        if (!recognised) parameters(w, cell, *any);
      }
    }
  }

  // The scenario's run by the test a column header names by its last part, underscores read as
  // spaces ("lowest idle: makespan" for design.grad-accum.lowest_idle); none if it names none.
  const json::object* named_in(const std::string& header, const std::vector<std::string>& tests,
                               const std::string& scenario) {
    for (const std::string& test : tests) {
      std::string last = test.substr(test.rfind('.') + 1);
      std::replace(last.begin(), last.end(), '_', ' ');
      if (header.find(last) == std::string::npos) continue;
      if (const json::object* report = reports_.get(test))
        return Reports::scenario(*report, scenario);
    }
    return nullptr;
  }

  // Every number of a parameter column is one of the scenario's parameter values.
  void parameters(const Where& w, const Cell& cell, const json::object& scenario) {
    std::vector<double> values;
    for (const json::value& p : scenario.at("parameters").as_array()) {
      for (const json::value& v : p.as_object().at("values").as_array()) {
        values.push_back(v.to_number<double>());
      }
    }
    for (const Number& n : numbers_in(cell.prose)) {
      ++figures_;
      if (std::none_of(values.begin(), values.end(), [&](double v) { return close_to(n, v); })) {
        error(w.line, w.guide, "row {}, column {}: {} is none of the scenario's parameters", w.row,
              w.column, n.text);
      }
    }
  }

  // The test that grades a kit file, from its path (or "variant NAME").
  std::optional<std::string> test_of(const std::string& file) {
    // An exercise's programs live in its tests' folder; the attacks in adversarial/.
    static const std::regex program(R"(harness/tests/([\w-]+)/(mutant|style)s/(\w+)\.cpp)");
    static const std::regex attack(R"(harness/tests/adversarial/([\w-]+)/(\w+)\.cpp)");
    static const std::regex variant(R"(variant (\w+))");
    std::smatch m;
    if (std::regex_match(file, m, variant))
      return fmt::format("variant.{}.{}", exercise_, m[1].str());
    if (!fs::exists(kit_ / file)) return std::nullopt;
    if (std::regex_match(file, m, program))
      return fmt::format("{}.{}.{}", m[2].str(), m[1].str(), m[3].str());
    if (std::regex_match(file, m, attack))
      return fmt::format("adversarial.{}.{}", m[1].str(), m[2].str());
    if (file == fmt::format("guides/find-the-bug/{}.cpp", exercise_))
      return "find-the-bug." + exercise_;
    if (file == fmt::format("solutions/{}/train.cpp", exercise_)) return "solution." + exercise_;
    if (file == fmt::format("exercises/{}/train.cpp", exercise_)) return "starter." + exercise_;
    return std::nullopt;
  }

  // A table whose rows are kit files, each graded by its own test.
  void kit_table(int line, const std::vector<std::string>& header,
                 const std::vector<std::vector<std::string>>& rows, std::size_t key) {
    for (std::size_t r = 0; r < rows.size(); ++r) {
      const int row_line = line + 2 + static_cast<int>(r);
      const Cell key_cell = split_code(rows[r][key]);
      const std::string file = key_cell.code.empty() ? trim(key_cell.prose) : key_cell.code.front();
      const auto test = test_of(file);
      if (!test) {
        error(row_line, guide_, "{} is no program of the kit that a test grades", file);
        continue;
      }
      const json::object* report = reports_.get(*test);
      if (!report) {
        error(row_line, guide_, "no report of test {} (is it defined, and did it run?)", *test);
        continue;
      }
      for (std::size_t c = 0; c < header.size() && c < rows[r].size(); ++c) {
        if (c == key) continue;
        const Cell head = split_code(header[c]);
        const Cell cell = split_code(rows[r][c]);
        const Where w{guide_, row_line, file, header[c]};
        if (lower(trim(header[c])) == "overall") {
          tier(w, cell, std::string(report->at("verdict").as_string()), true);
          continue;
        }
        if (head.code.empty()) continue;  // words about the mistake: not a figure
        const json::object* s = Reports::scenario(*report, head.code.front());
        if (!s) {
          error(row_line, guide_, "test {} did not grade scenario {}", *test, head.code.front());
          continue;
        }
        const std::string verdict(s->at("verdict").as_string());
        tier(w, cell, verdict, false);
        const std::set<std::string> kinds = kinds_of(*s);
        for (const std::string& code : cell.code) {
          static const std::regex kind(R"([a-z]+(-[a-z]+)*)");
          if (kTiers.contains(code) || !std::regex_match(code, kind)) continue;
          ++figures_;
          if (!kinds.contains(code)) {
            error(row_line, guide_,
                  "row {}, column {}: the grader reported no {} (it reported: {})", file, header[c],
                  code, fmt::join(kinds, ", "));
          }
        }
        const double scale =
            lower(header[c]).find("per step") != std::string::npos ? steps_of(*s) : 1;
        if (!numbers_in(cell.prose).empty()) {
          time(w, cell, number(*s, "makespan_ms"), number(*s, "baseline_ms"), scale);
        }
      }
    }
  }

 private:
  std::string exercise_, guide_;
  Reports& reports_;
  fs::path kit_;
  int figures_ = 0;
};

// A section: from its `## ` heading to the next one.
std::string section_of(const std::vector<std::string>& lines, const std::string& heading,
                       int& first_line) {
  std::string out;
  bool inside = false;
  for (std::size_t i = 0; i < lines.size(); ++i) {
    if (lines[i].starts_with("## ")) {
      if (inside) break;
      if (trim(lines[i]) == heading) {
        inside = true;
        first_line = static_cast<int>(i) + 1;
        continue;
      }
    }
    if (inside) out += lines[i] + '\n';
  }
  return out;
}

int words_in(const std::string& text) {
  std::istringstream in(text);
  int count = 0;
  for (std::string token; in >> token;) {
    if (std::any_of(token.begin(), token.end(), [](unsigned char c) { return std::isalnum(c); })) {
      ++count;
    }
  }
  return count;
}

// The pages printed for the table. The card says the intro and asks the predictions word for
// word: `**Intro**` and `**Predictions**`, each followed by a quotation, the intro of two
// sentences. Page two (`## Page two`) fits a printed page and gives each follow-up question
// (`**N. ...**` under `### Follow-up questions`) the good and the weak answer it is scored against.
void check_pages(const std::vector<std::string>& lines, const std::string& card, int card_line,
                 const std::string& guide, int& page_two_words) {
  const std::string flat = squeeze(card);
  static const std::regex intro(R"re(\*\*Intro\*\*[^"]*"([^"]+)")re");
  static const std::regex predictions(R"re(\*\*Predictions\*\*[^"]*"([^"]+)")re");
  static const std::regex sentence_end(R"([.?!](\s|$))");
  std::smatch m;
  if (!std::regex_search(flat, m, intro)) {
    error(card_line, guide, "the card gives no intro (`**Intro**` and a quotation)");
  } else {
    const std::string text = m[1].str();
    const auto sentences = std::distance(
        std::sregex_iterator(text.begin(), text.end(), sentence_end), std::sregex_iterator());
    if (sentences != 2)
      error(card_line, guide, "the card's intro has {} sentences, not two", sentences);
  }
  if (!std::regex_search(flat, m, predictions) || m[1].str().find('?') == std::string::npos)
    error(card_line, guide, "the card asks no predictions (`**Predictions**` and a question)");

  int line = 0;
  const std::string page = section_of(lines, "## Page two", line);
  page_two_words = words_in(page);
  if (page.empty()) {
    error(1, guide, "no `## Page two` section");
    return;
  }
  if (page_two_words > kCardWordLimit) {
    error(line, guide, "page two has {} words, more than a printed page ({})", page_two_words,
          kCardWordLimit);
  }
  const std::size_t start = page.find("### Follow-up questions");
  if (start == std::string::npos) {
    error(line, guide, "page two has no `### Follow-up questions`");
    return;
  }
  static const std::regex question(R"(\*\*(\d+)\. )");
  const std::string follow_ups = page.substr(start);
  std::vector<std::pair<std::string, std::size_t>> starts;
  for (auto it = std::sregex_iterator(follow_ups.begin(), follow_ups.end(), question);
       it != std::sregex_iterator(); ++it) {
    starts.emplace_back((*it)[1].str(), static_cast<std::size_t>(it->position()));
  }
  if (starts.empty()) error(line, guide, "page two lists no follow-up question (`**N. ...**`)");
  for (std::size_t q = 0; q < starts.size(); ++q) {
    const std::size_t end = q + 1 < starts.size() ? starts[q + 1].second : follow_ups.size();
    const std::string answer = follow_ups.substr(starts[q].second, end - starts[q].second);
    for (const char* kind : {"*Good", "*Weak"}) {
      if (answer.find(kind) == std::string::npos) {
        error(line, guide, "page two: follow-up question {} has no {}:* answer", starts[q].first,
              kind);
      }
    }
  }
}

// Preparation, estimated from word counts: the card twice, page two, the hints file, the script
// notes and the fast-solver branch at the rate of guides/README.md's table after
// `<!-- preparation: R words a minute -->`, rounded up to 5 minutes, must be the minutes the
// table gives the exercise.
// The words of hints `numbers`, each from its `**Hint N:` to the next hint.
int hint_words(const std::string& hints, const std::vector<int>& numbers) {
  static const std::regex heading(R"(\*\*Hint (\d+):)");
  std::vector<std::pair<int, std::size_t>> starts;
  for (auto it = std::sregex_iterator(hints.begin(), hints.end(), heading);
       it != std::sregex_iterator(); ++it) {
    starts.emplace_back(std::stoi((*it)[1].str()), static_cast<std::size_t>(it->position()));
  }
  int words = 0;
  for (std::size_t k = 0; k < starts.size(); ++k) {
    if (std::find(numbers.begin(), numbers.end(), starts[k].first) == numbers.end()) continue;
    const std::size_t end = k + 1 < starts.size() ? starts[k + 1].second : hints.size();
    words += words_in(hints.substr(starts[k].second, end - starts[k].second));
  }
  return words;
}

// The preparation table of guides/README.md: per exercise, the 45-minute interview's reading (the
// card twice, page two, every hint with its answer, the script notes, the fast-solver branch)
// and the 15-minute one's (its card twice and the hints it uses), at the table's rate, rounded
// up to 5 minutes.
void check_preparation(const std::vector<std::string>& lines, int card_words, int page_two_words,
                       const std::string& hints, const std::string& exercise, const fs::path& kit,
                       const std::string& guide, int& minutes) {
  int words = 2 * card_words + page_two_words + words_in(hints);
  for (const char* heading :
       {"## Before the interview", "## Script notes", "## The script in full", "## Fast solver"}) {
    int line = 0;
    words += words_in(section_of(lines, heading, line));
  }
  // An exercise without a 15-minute format (no scenario for it in the rule) shows "–".
  int quick_line = 0;
  const auto rule = overlap::interview::read_score_rule((kit / "guides/score.json").string());
  const auto& ex = rule.exercise(exercise);
  const auto listed = ex.hints.find("15-minute");
  const bool has_quick = ex.scenario_of("15-minute") != nullptr;
  const int quick_words = 2 * words_in(section_of(lines, "## The 15-minute card", quick_line)) +
                          (listed == ex.hints.end() ? 0 : hint_words(hints, listed->second));
  const std::string readme = "guides/README.md";
  const std::vector<std::string> rows = lines_of(read_file(kit / readme));
  static const std::regex marker(R"(^<!-- preparation: (\d+) words a minute -->\s*$)");
  for (std::size_t i = 0; i < rows.size(); ++i) {
    std::smatch m;
    if (!std::regex_match(rows[i], m, marker)) continue;
    const int rate = std::stoi(m[1].str());
    minutes = (words + 5 * rate - 1) / (5 * rate) * 5;
    for (std::size_t j = i + 1; j < rows.size() && trim(rows[j]).starts_with('|'); ++j) {
      const std::vector<std::string> cells = cells_of(rows[j]);
      if (cells.size() < 2 || trim(cells[0]) != "`" + exercise + "`") continue;
      if (trim(cells[1]) != std::to_string(minutes)) {
        error(static_cast<int>(j) + 1, readme,
              "{} takes {} minutes to prepare, the table says {}: {} words of {} at {} a minute",
              exercise, minutes, trim(cells[1]), words, guide, rate);
      }
      const int quick = (quick_words + 5 * rate - 1) / (5 * rate) * 5;
      const std::string want = has_quick ? std::to_string(quick) : "–";
      if (cells.size() < 3 || trim(cells[2]) != want) {
        error(static_cast<int>(j) + 1, readme,
              "{} takes {} minutes to prepare for 15 minutes, the table says {}: {} words at {} a "
              "minute",
              exercise, want, cells.size() < 3 ? "nothing" : trim(cells[2]), quick_words, rate);
      }
      return;
    }
    error(static_cast<int>(i) + 1, readme, "no preparation row for `{}`", exercise);
    return;
  }
  error(1, readme, "no preparation table (`<!-- preparation: R words a minute -->`)");
}

// Each hint's question: the first quotation after its `**Hint N: ...**` heading.
std::vector<std::pair<int, std::string>> hint_questions(const std::string& hints) {
  std::vector<std::pair<int, std::string>> out;
  static const std::regex heading(R"(\*\*Hint (\d+):[^*]*\*\*\s*\"([^\"]+)\")");
  for (auto it = std::sregex_iterator(hints.begin(), hints.end(), heading);
       it != std::sregex_iterator(); ++it) {
    out.emplace_back(std::stoi((*it)[1].str()), squeeze((*it)[2].str()));
  }
  return out;
}

// The lines of a block that starts after `marker`'s line: up to the first blank line.
std::vector<std::string> block_after(const std::vector<std::string>& lines, std::size_t marker) {
  std::vector<std::string> out;
  for (std::size_t j = marker + 1; j < lines.size() && !trim(lines[j]).empty(); ++j) {
    out.push_back(lines[j]);
  }
  return out;
}

// Where a format's anchors are graded: the default set, or its one scenario.
std::string graded_on(const std::string* scenario) {
  return scenario ? fmt::format("on `{}`", *scenario) : "overall on the default set";
}

// The anchors table, generated from the rule's data: a row per anchor.
std::string anchors_table(const std::vector<overlap::interview::Anchor>& anchors,
                          const std::string* scenario) {
  std::string out = fmt::format("| anchor | outcome | kit file | {} |\n| --- | --- | --- | --- |\n",
                                graded_on(scenario));
  for (const auto& a : anchors) {
    out += fmt::format("| {} | {} | `{}` | `{}` |\n", a.says, a.outcome, a.program,
                       overlap::verdict::tier_name(a.verdict));
  }
  return out;
}

// The card of a format that grades one scenario (`## The 15-minute card`): it fits a printed
// page, names its scenario as the command grades it, quotes the hints its data lists, and marks
// the debrief of a candidate already at the best known, who has no gap to explain.
void check_format_card(const std::string& exercise, const std::string& guide,
                       const std::vector<std::string>& lines, const fs::path& kit,
                       const std::string& format, const std::string& scenario,
                       const overlap::interview::ExerciseRule& ex) {
  int line = 0;
  const std::string heading = fmt::format("## The {} card", format);
  const std::string card = section_of(lines, heading, line);
  if (card.empty()) {
    error(1, guide, "no `{}` section (guides/score.json gives {} a scenario)", heading, format);
    return;
  }
  if (const int words = words_in(card); words > kCardWordLimit) {
    error(line, guide, "the {} card has {} words, more than a printed page ({})", format, words,
          kCardWordLimit);
  }
  if (card.find("Already at the best known:") == std::string::npos) {
    error(line, guide,
          "the {} card's debrief has no mark for a candidate already at the best known "
          "(`Already at the best known:`)",
          format);
  }
  const std::string command = fmt::format("./overlap grade {} --scenario {}", exercise, scenario);
  if (card.find(command) == std::string::npos) {
    error(line, guide, "the {} card does not give its scenario's command `{}`", format, command);
  }
  const auto questions = hint_questions(read_file(kit / "guides/hints" / (exercise + ".md")));
  const std::string flat = squeeze(card);
  const auto listed = ex.hints.find(format);
  if (listed == ex.hints.end()) {
    error(line, guide, "guides/score.json lists no hints for the {} format", format);
    return;
  }
  for (int n : listed->second) {
    const auto q = std::find_if(questions.begin(), questions.end(),
                                [n](const auto& hint) { return hint.first == n; });
    if (q == questions.end()) {
      error(line, guide, "guides/score.json lists hint {} for {}, which the hints lack", n, format);
    } else if (flat.find(q->second) == std::string::npos) {
      error(line, guide, "the {} card does not quote hint {} word for word: \"{}\"", format, n,
            q->second);
    }
  }
}

// The score table and the anchors table of a guide: as the rule's data generates them, and each
// anchor's overall tier as its test graded it.
void check_score_tables(const std::string& exercise, const std::string& guide,
                        const std::vector<std::string>& lines, const fs::path& kit,
                        Reports& reports) {
  const auto rule = overlap::interview::read_score_rule((kit / "guides/score.json").string());
  const auto& ex = rule.exercise(exercise);
  static const std::regex score_marker(R"(^<!-- score table: ([\w-]+) -->\s*$)");
  static const std::regex anchors_marker(R"(^<!-- anchors: ([\w-]+) -->\s*$)");
  std::set<std::string> scored, anchored;
  for (std::size_t i = 0; i < lines.size(); ++i) {
    std::smatch m;
    const bool score = std::regex_match(lines[i], m, score_marker);
    if (!score && !std::regex_match(lines[i], m, anchors_marker)) continue;
    const std::string format = m[1].str();
    if (!rule.formats.contains(format)) {
      error(static_cast<int>(i) + 1, guide, "guides/score.json has no format {}", format);
      continue;
    }
    const auto found = ex.anchors.find(format);
    const std::vector<overlap::interview::Anchor> anchors =
        found == ex.anchors.end() ? std::vector<overlap::interview::Anchor>{} : found->second;
    std::string expected = score ? overlap::interview::card_table(rule.format(format), anchors)
                                 : anchors_table(anchors, ex.scenario_of(format));
    std::vector<std::string> want = lines_of(expected);
    std::vector<std::string> have = block_after(lines, i);
    if (score) {  // the sentence that reads it, after a blank line
      want.push_back(rule.format(format).reading);
      const std::size_t reading = i + have.size() + 2;
      have.push_back(reading < lines.size() ? lines[reading] : "(nothing)");
    }
    for (std::size_t k = 0; k < std::max(want.size(), have.size()); ++k) {
      const std::string w = k < want.size() ? want[k] : "(nothing)";
      const std::string h = k < have.size() ? have[k] : "(nothing)";
      if (w != h) {
        error(static_cast<int>(i + 2 + k), guide,
              "the {} table differs from guides/score.json's:\n  guide: {}\n  data:  {}",
              score ? "score" : "anchors", h, w);
        break;
      }
    }
    (score ? scored : anchored).insert(format);
    if (score) continue;
    // A candidate at the reference's standing can reach the top outcome: some anchor grades the
    // reference and names that outcome.
    const std::string reference = fmt::format("solutions/{}/train.cpp", exercise);
    const std::string& top = rule.format(format).outcomes.front().name;
    if (std::none_of(anchors.begin(), anchors.end(),
                     [&](const auto& a) { return a.program == reference && a.outcome == top; })) {
      error(static_cast<int>(i) + 1, guide,
            "no {} anchor grades the reference ({}) as {}: a candidate already at the best known "
            "has no row",
            format, reference, top);
    }
    for (const auto& a : anchors) {
      const std::string test = fmt::format("anchor.{}.{}", exercise, a.name);
      const json::object* report = reports.get(test);
      if (!report) {
        error(static_cast<int>(i) + 1, guide, "no report of test {} (did it run?)", test);
        continue;
      }
      const std::string overall(report->at("verdict").as_string());
      if (overall != overlap::verdict::tier_name(a.verdict)) {
        error(static_cast<int>(i) + 1, guide,
              "anchor {} ({}): the data says `{}` {}, the grader {}", a.name, a.program,
              overlap::verdict::tier_name(a.verdict), graded_on(ex.scenario_of(format)), overall);
      }
    }
  }
  for (const auto& [format, scenario] : ex.scenario) {
    check_format_card(exercise, guide, lines, kit, format, scenario, ex);
  }
  for (const auto& [format, anchors] : ex.anchors) {
    if (!scored.contains(format)) {
      error(1, guide, "no score table for format {} (<!-- score table: {} -->)", format, format);
    }
    if (!anchored.contains(format)) {
      error(1, guide, "no anchors table for format {} (<!-- anchors: {} -->)", format, format);
    }
  }
}

}  // namespace

int main(int argc, char** argv) {
  if (argc != 6) {
    fmt::print(stderr, "usage: overlap-guide-figures EXERCISE GUIDE HINTS REPORTS KIT\n");
    return 2;
  }
  const std::string exercise = argv[1];
  const fs::path guide_path = argv[2];
  const std::string guide = fs::relative(guide_path, argv[5]).string();
  try {
    const std::vector<std::string> lines = lines_of(read_file(guide_path));

    int card_line = 0;
    const std::string card = section_of(lines, "## The card", card_line);
    const int words = words_in(card);
    if (card.empty()) error(1, guide, "no `## The card` section");
    if (words > kCardWordLimit) {
      error(card_line, guide, "the card has {} words, more than a printed page ({})", words,
            kCardWordLimit);
    }
    const std::string hints = read_file(argv[3]);
    const auto questions = hint_questions(hints);
    if (questions.empty()) error(1, guide, "no hint questions found in {}", argv[3]);
    const std::string flat_card = squeeze(card);
    for (const auto& [n, question] : questions) {
      if (flat_card.find(question) == std::string::npos) {
        error(card_line, guide, "the card does not quote hint {} word for word: \"{}\"", n,
              question);
      }
    }

    int page_two_words = 0, minutes = 0;
    check_pages(lines, card, card_line, guide, page_two_words);
    check_preparation(lines, words, page_two_words, hints, exercise, argv[5], guide, minutes);

    Reports reports(argv[4]);
    check_score_tables(exercise, guide, lines, argv[5], reports);
    Checker checker(exercise, guide, reports, argv[5]);
    static const std::regex marker(R"(^<!-- checked: ([^>]*) -->\s*$)");
    int tables = 0;
    for (std::size_t i = 0; i < lines.size(); ++i) {
      std::smatch m;
      if (!std::regex_match(lines[i], m, marker)) continue;
      const int line = static_cast<int>(i) + 2;
      std::vector<std::string> tests;
      std::istringstream names(m[1].str());
      for (std::string t; names >> t;) {
        if (!reports.get(t))
          error(line - 1, guide, "no report of test {} (is it defined, and did it run?)", t);
        tests.push_back(t);
      }
      std::size_t j = i + 1;
      std::vector<std::vector<std::string>> rows;
      while (j < lines.size() && trim(lines[j]).starts_with('|'))
        rows.push_back(cells_of(lines[j++]));
      if (rows.size() < 3) {
        error(line, guide, "a checked marker must be followed by a table with rows");
        continue;
      }
      ++tables;
      const std::vector<std::string> header = rows[0];
      rows.erase(rows.begin(), rows.begin() + 2);  // the header and its --- line
      std::optional<std::size_t> scenario_key, kit_key;
      for (std::size_t c = 0; c < header.size(); ++c) {
        const std::string h = lower(trim(header[c]));
        if (h == "scenario") scenario_key = c;
        if (h == "kit file") kit_key = c;
      }
      const int before = checker.figures();
      if (scenario_key) {
        checker.scenario_table(line, tests, header, rows, *scenario_key);
      } else if (kit_key) {
        checker.kit_table(line, header, rows, *kit_key);
      } else {
        error(line, guide, "a checked table needs a `scenario` or a `kit file` column");
      }
      if (checker.figures() == before) error(line, guide, "this checked table checks nothing");
    }
    if (tables == 0)
      error(1, guide, "no checked table (<!-- checked: TEST ... --> before a table)");
    fmt::print(
        "{}: the card {} words (at most {}), {} hints quoted; page two {} words; {} minutes to "
        "prepare; {} checked tables, {} figures\n",
        guide, words, kCardWordLimit, questions.size(), page_two_words, minutes, tables,
        checker.figures());
  } catch (const std::exception& e) {
    fmt::print(stderr, "overlap-guide-figures: {}\n", e.what());
    return 2;
  }
  for (const std::string& e : errors) fmt::print(stderr, "{}\n", e);
  return errors.empty() ? 0 : 1;
}
