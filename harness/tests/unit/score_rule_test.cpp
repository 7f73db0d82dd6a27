// The score sheet's rule (guides/score.json): every combination of inputs gives exactly one
// outcome, every combination of tiers a code score, the code score follows the card's words, and
// each anchor lands in the row it illustrates. The totality check itself finds a hole and an
// overlap in a broken rule.
#include "../../interview/score_rule.hpp"

#include <algorithm>
#include <boost/json.hpp>
#include <boost/test/unit_test.hpp>
#include <fstream>
#include <set>
#include <sstream>

using namespace overlap::interview;

namespace {

std::string shipped_text() {
  std::ifstream in(OVERLAP_KIT_DIR "/guides/score.json");
  std::ostringstream text;
  text << in.rdbuf();
  return text.str();
}

const ScoreRule& shipped() {
  static const ScoreRule rule = parse_score_rule(shipped_text());
  return rule;
}

// Every combination of the format's sub-scores, each over its whole range: how many give other
// than exactly one outcome.
int not_one_outcome(const Format& f, int* combinations = nullptr) {
  std::map<std::string, int> scores;
  for (const Dimension& d : f.dimensions) scores[d.name] = d.min;
  int bad = 0, seen = 0;
  while (true) {
    ++seen;
    if (outcomes_holding(f, scores).size() != 1) ++bad;
    std::size_t i = 0;  // the next combination, like an odometer
    for (; i < f.dimensions.size(); ++i) {
      const Dimension& d = f.dimensions[i];
      if (++scores[d.name] <= d.max) break;
      scores[d.name] = d.min;
    }
    if (i == f.dimensions.size()) break;
  }
  if (combinations) *combinations = seen;
  return bad;
}

// Every multiset of tiers over 1 to `most` scenarios.
void tier_sets(std::size_t most, std::vector<Tier>& current, int from,
               std::vector<std::vector<Tier>>& out) {
  if (!current.empty()) out.push_back(current);
  if (current.size() == most) return;
  for (int t = from; t < 4; ++t) {
    current.push_back(static_cast<Tier>(t));
    tier_sets(most, current, t, out);
    current.pop_back();
  }
}

int code_of(std::vector<Tier> tiers, bool explained = false, int hint = 0,
            std::optional<Tier> unseen = std::nullopt, const char* format = "45-minute") {
  const Format& f = shipped().format(format);
  return code_score(f.code, shipped().exercise("pipeline"), {tiers, explained, hint, unseen}).value;
}

constexpr Tier O = Tier::optimal, P = Tier::pass, S = Tier::slow, F = Tier::fail;

}  // namespace

BOOST_AUTO_TEST_SUITE(rule)

BOOST_AUTO_TEST_CASE(every_combination_of_sub_scores_gives_one_outcome) {
  BOOST_REQUIRE(!shipped().formats.empty());
  for (const auto& [name, format] : shipped().formats) {
    int combinations = 0;
    BOOST_TEST(not_one_outcome(format, &combinations) == 0, name);
    BOOST_TEST_MESSAGE(name << ": " << combinations << " combinations of sub-scores");
    for (const Dimension& d : format.dimensions) {
      for (int v = d.min; v <= d.max; ++v) {
        BOOST_TEST(row_of(format, d.name, v).has_value(), d.name << " " << v << " in one row");
      }
    }
  }
}

// From the person's marks and the session, not from sub-scores: in every format, every
// combination of tiers (up to 8 scenarios, or the format's one), hints, an unseen seed's tier and
// the marks the format asks for (predictions, communication, two or three follow-ups, the
// approach, the debrief, a misunderstanding defended) gives one outcome.
BOOST_AUTO_TEST_CASE(every_combination_of_inputs_gives_one_outcome) {
  const ExerciseRule& ex = shipped().exercise("pipeline");
  BOOST_REQUIRE(shipped().formats.size() >= 2u);
  for (const auto& [name, f] : shipped().formats) {
    std::vector<std::vector<Tier>> tiers{{}};  // none built
    std::vector<Tier> current;
    tier_sets(ex.scenario_of(name) ? 1 : 8, current, 0, tiers);
    std::set<int> codes;
    for (const auto& t : tiers) {
      for (bool explained : {false, true}) {
        for (int hint : {0, ex.first_insight_hint}) {
          for (int unseen = -1; unseen < 4; ++unseen) {
            const auto u = unseen < 0 ? std::nullopt : std::optional(static_cast<Tier>(unseen));
            const int c = code_score(f.code, ex, {t, explained, hint, u}).value;
            BOOST_TEST_REQUIRE((c >= f.code.points.at("none") && c <= f.code.points.at("optimal")));
            codes.insert(c);
          }
        }
      }
    }
    // Each code score is reached.
    BOOST_TEST(static_cast<int>(codes.size()) == f.code.points.at("optimal") + 1, name);
    std::vector<std::vector<int>> follow_up_sets;
    for (int a = 0; a < 3; ++a)
      for (int b = 0; b < 3; ++b) {
        follow_up_sets.push_back({a, b});
        for (int c = 0; c < 3; ++c) follow_up_sets.push_back({a, b, c});
      }
    int combinations = 0, bad = 0;
    for (int code : codes)
      for (int p1 = 0; p1 < 3; ++p1)
        for (int p2 = 0; p2 < 3; ++p2)
          for (int m = 0; m < 3; ++m)
            for (const auto& fu : follow_up_sets)
              for (int defended : {0, 1}) {
                // The approach and the debrief take the values the other marks take.
                const Marks marks{{p1, p2}, m, fu, p1, p2, defended == 1};
                ++combinations;
                if (outcomes_holding(f, sub_scores(f, code, marks)).size() != 1) ++bad;
              }
    BOOST_TEST(bad == 0, name);
    BOOST_TEST(combinations == static_cast<int>(codes.size()) * 9 * 3 * 36 * 2, name);
  }
}

namespace {

// The slots of a complete marking, in a fixed order: predictions, communication, follow-ups,
// approach, debrief, defended, gap explained.
std::vector<Given*> slots_of(GivenMarks& m) {
  std::vector<Given*> out;
  for (Given& p : m.predictions) out.push_back(&p);
  out.push_back(&m.communication);
  for (Given& f : m.follow_ups) out.push_back(&f);
  for (Given* g : {&m.approach, &m.debrief, &m.defended, &m.gap_explained}) out.push_back(g);
  return out;
}

std::size_t outcome_of(const Format& f, const std::function<int(bool)>& code, const GivenMarks& m) {
  const Marks complete = as_blank_cells(m);  // nothing left blank: the marks themselves
  const auto rows =
      outcomes_holding(f, sub_scores(f, code(m.gap_explained.value_or(0) == 1), complete));
  // Checked in a loop of some 100 000 calls: Boost.Test's macro only when it fails.
  if (rows.size() != 1) BOOST_TEST_REQUIRE(rows.size() == 1u);
  return rows.front();
}

}  // namespace

// A question not asked leaves a blank cell: the outcome is the best any answer to it could give,
// the lowest the worst, and the outcome of every answer lies between. So an outcome is never
// lower because a question was not asked. Every format; markings of 0 and 2 (flags 0 and 1),
// with each one or two of the questions not asked; code scores across the range, the gap's
// explanation worth one point.
BOOST_AUTO_TEST_CASE(a_question_not_asked_is_a_blank_cell) {
  int readings = 0;
  for (const auto& [name, f] : shipped().formats) {
    for (int base = f.code.points.at("none"); base < f.code.points.at("optimal"); ++base) {
      const auto code = [&](bool explained) { return base + (explained ? 1 : 0); };
      // Every fifth of the 512 markings: each slot at 0 and at its best, the others varied (all
      // 512 took 80 s).
      for (int bits = 0; bits < (1 << 9); bits += 5) {
        GivenMarks complete{{0, 0}, 0, {0, 0}, 0, 0, 0, 0};
        const std::vector<Given*> slots = slots_of(complete);
        for (std::size_t i = 0; i < slots.size(); ++i) {
          const bool flag = i + 2 >= slots.size();
          *slots[i] = (bits >> i & 1) ? (flag ? 1 : 2) : 0;
        }
        for (std::size_t a = 0; a < slots.size(); ++a) {
          for (std::size_t b = a; b < slots.size(); ++b) {
            GivenMarks given = complete;
            const std::vector<Given*> g = slots_of(given);
            g[a]->reset();
            g[b]->reset();
            const Reading r = read_marks(f, code, given);
            ++readings;
            // Every answer to the questions not asked, brute force.
            std::size_t best = f.outcomes.size(), worst = 0;
            const int most_a = a + 2 >= g.size() ? 1 : 2, most_b = b + 2 >= g.size() ? 1 : 2;
            for (int va = 0; va <= most_a; ++va) {
              for (int vb = 0; vb <= most_b; ++vb) {
                GivenMarks filled = given;
                const std::vector<Given*> h = slots_of(filled);
                *h[a] = va;
                if (b != a) *h[b] = vb;
                const std::size_t row = outcome_of(f, code, filled);
                best = std::min(best, row);
                worst = std::max(worst, row);
              }
            }
            // Boost.Test's macros only when a check fails: this loop reads 20 000 markings.
            const bool deciding_between =
                std::all_of(r.deciding.begin(), r.deciding.end(), [&](const Reading::Deciding& d) {
                  return d.outcome > r.outcome && d.outcome <= r.lowest;
                });
            if (r.outcome != best || r.lowest != worst ||
                r.outcome > outcome_of(f, code, complete) || !deciding_between ||
                r.deciding.empty() != (r.lowest == r.outcome)) {
              BOOST_TEST_REQUIRE(r.outcome == best, name);
              BOOST_TEST_REQUIRE(r.lowest == worst, name);
              BOOST_TEST_REQUIRE(r.outcome <= outcome_of(f, code, complete), name);
              BOOST_TEST_REQUIRE(deciding_between, name);
              BOOST_TEST_REQUIRE(r.deciding.empty() == (r.lowest == r.outcome), name);
            }
          }
        }
      }
    }
  }
  BOOST_TEST(readings > 10000);
}

// The case: code at its best, communication and follow-ups at theirs, the predictions not
// asked: Hire or better, and the predictions named as what decides the rest.
BOOST_AUTO_TEST_CASE(the_predictions_not_asked_name_themselves) {
  const Format& f = shipped().format("45-minute");
  const GivenMarks given{{std::nullopt, std::nullopt}, 2, {2, 2}, 0, 0, 0, 0};
  const Reading r = read_marks(
      f, [&](bool) { return f.code.points.at("optimal"); }, given);
  BOOST_TEST(f.outcomes[r.outcome].name == "Strong hire");
  BOOST_TEST_REQUIRE(r.deciding.size() >= 1u);
  BOOST_TEST(r.deciding.front().when.find("the predictions add up to") == 0u);
}

BOOST_AUTO_TEST_CASE(each_format_asks_for_the_marks_its_sub_scores_read) {
  BOOST_TEST(marks_needed(shipped().format("45-minute")) ==
                 (std::vector<std::string>{"--predictions", "--communication", "--follow-ups"}),
             boost::test_tools::per_element());
  BOOST_TEST(marks_needed(shipped().format("15-minute")) ==
                 (std::vector<std::string>{"--approach", "--debrief"}),
             boost::test_tools::per_element());
  Format unknown = shipped().format("15-minute");
  unknown.dimensions.push_back({"charisma", "code", "", false, "", "", 0, 2});
  BOOST_CHECK_THROW(sub_scores(unknown, 0, Marks{}), std::runtime_error);
}

BOOST_AUTO_TEST_CASE(a_format_of_one_scenario_names_it_and_its_hints) {
  for (const auto& [exercise, ex] : shipped().exercises) {
    const std::string* scenario = ex.scenario_of("15-minute");
    BOOST_TEST_REQUIRE(scenario != nullptr, exercise);
    BOOST_TEST(!scenario->empty());
    BOOST_TEST(ex.scenario_of("45-minute") == nullptr);  // every scenario
    BOOST_TEST(ex.hints.contains("15-minute"), exercise);
  }
  std::string text = shipped_text();
  const std::string scenario = "\"scenario\": { \"15-minute\"";
  BOOST_REQUIRE(text.find(scenario) != std::string::npos);
  text.replace(text.find(scenario), scenario.size(), "\"scenario\": { \"5-minute\"");
  BOOST_CHECK_THROW(parse_score_rule(text), std::runtime_error);  // a format the rule lacks
}

BOOST_AUTO_TEST_CASE(a_hole_and_an_overlap_are_found) {
  ScoreRule broken = shipped();
  Format& f = broken.formats.at("45-minute");
  f.outcomes[1].bands.at("code") = {3, 4};  // Hire's code overlaps Strong hire's
  BOOST_TEST(not_one_outcome(f) > 0);
  BOOST_TEST(!row_of(f, "code", 4).has_value());
  broken = shipped();
  broken.formats.at("45-minute").outcomes[2].bands.erase("design");  // design 0-1: no row
  BOOST_TEST(not_one_outcome(broken.formats.at("45-minute")) > 0);
}

BOOST_AUTO_TEST_CASE(the_code_score_as_the_card_says) {
  BOOST_TEST(code_of({}) == 0);  // nothing built
  BOOST_TEST(code_of({O, O, O}) == 4);
  BOOST_TEST(code_of({P, P}) == 3);
  BOOST_TEST(code_of({S}) == 2);
  BOOST_TEST(code_of({O, F, O}, true) == 1);  // a fail is not averaged, explained or not
  // One scenario alone below the rest: one above its tier when explained.
  BOOST_TEST(code_of({O, O, P}) == 3);
  BOOST_TEST(code_of({O, O, P}, true) == 4);
  BOOST_TEST(code_of({P, P, S}, true) == 3);
  BOOST_TEST(code_of({O, S, O}, true) == 3);
  BOOST_TEST(code_of({P, S, S}, true) == 2);  // two below: no
  BOOST_TEST(code_of({P}, true) == 3);        // alone is not below the rest
  // The hint penalty, once, from the first insight hint.
  BOOST_TEST(code_of({O}, false, 3) == 3);
  BOOST_TEST(code_of({O, O, P}, true, 4) == 3);
  // A seed never seen: a fail caps at 2, a slow changes nothing.
  BOOST_TEST(code_of({O}, false, 0, F) == 2);
  BOOST_TEST(code_of({S}, false, 0, F) == 2);
  BOOST_TEST(code_of({O}, false, 0, S) == 4);
  // 15 minutes, one scenario: a fail is no worse than the starter; the hint and unseen rules hold.
  const char* q = "15-minute";
  BOOST_TEST(code_of({}, false, 0, std::nullopt, q) == 0);
  BOOST_TEST(code_of({F}, false, 0, std::nullopt, q) == 1);
  BOOST_TEST(code_of({S}, false, 0, std::nullopt, q) == 1);
  BOOST_TEST(code_of({P}, false, 0, std::nullopt, q) == 2);
  BOOST_TEST(code_of({O}, false, 0, std::nullopt, q) == 3);
  BOOST_TEST(code_of({O}, false, 4, std::nullopt, q) == 2);
  BOOST_TEST(code_of({O}, false, 0, F, q) == 1);
}

BOOST_AUTO_TEST_CASE(every_anchor_lands_in_its_row) {
  int anchors = 0;
  for (const auto& [exercise, ex] : shipped().exercises) {
    for (const auto& [format_name, list] : ex.anchors) {
      const Format& f = shipped().format(format_name);
      for (const Anchor& a : list) {
        ++anchors;
        // What the anchor does not fix is at its best: the anchor's own words place it.
        std::map<std::string, int> scores;
        for (const Dimension& d : f.dimensions) scores[d.name] = f.outcomes[0].bands.at(d.name).low;
        const int hint = a.hints >= ex.first_insight_hint ? ex.first_insight_hint : 0;
        std::vector<Tier> tiers = {a.verdict};
        if (a.one_below) tiers.push_back(static_cast<Tier>(static_cast<int>(a.verdict) + 1));
        scores["code"] = code_score(f.code, ex, {tiers, a.explained, hint, std::nullopt}).value;
        for (const auto& [d, v] : a.scores) {
          BOOST_TEST_REQUIRE(scores.contains(d),
                             exercise << " " << a.name << ": no sub-score " << d);
          scores[d] = v;
        }
        const auto holding = outcomes_holding(f, scores);
        BOOST_TEST_REQUIRE(holding.size() == 1u);
        BOOST_TEST(f.outcomes[holding.front()].name == a.outcome, exercise << " " << a.name);
      }
    }
  }
  BOOST_TEST(anchors > 0);
}

BOOST_AUTO_TEST_CASE(a_malformed_rule_is_refused) {
  std::string text = shipped_text();
  const std::string band = "\"code\": [4, 4]";
  BOOST_REQUIRE(text.find(band) != std::string::npos);
  text.replace(text.find(band), band.size(), "\"code\": [4, 5]");  // past the dimension's max
  BOOST_CHECK_THROW(parse_score_rule(text), std::runtime_error);
  BOOST_CHECK_THROW(parse_score_rule("{\"formats\": 3}"), std::runtime_error);
}

BOOST_AUTO_TEST_SUITE_END()
