// The score sheet's rule, read from its one data file (guides/score.json): how the code score
// follows from the tiers and the hints, and which outcome the sub-scores give.
//
// Each outcome is a row of bands, one range per sub-score it limits. A sub-score's value falls in
// exactly one row's band (the totality test checks it), and the outcome is the lowest row any
// sub-score falls in: outcome R holds when every sub-score is in R's band or a higher row's, and
// at least one is in R's. Each outcome's condition reads its own row and those above it only, so
// the outcomes are independent conditions, not a chain of else-ifs.
#pragma once

#include <functional>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "../verdict/result.hpp"

namespace overlap::interview {

using verdict::Tier;

struct Band {
  int low = 0, high = 0;
  bool contains(int v) const { return low <= v && v <= high; }
};

struct Dimension {
  std::string name;     // "code", "design", "weak follow-ups"
  std::string column;   // the card table's column it is shown in
  std::string unit;     // words after a range on the card ("weak"), or "" for none
  bool yes_no = false;  // a sub-score of 0 or 1, shown on the card by what each means:
  std::string yes, no;  // "" shows nothing
  int min = 0, max = 0;
};

struct Outcome {
  std::string name;                   // "Strong hire", ...
  std::map<std::string, Band> bands;  // by dimension name
};

// How the code score follows from the tiers graded during the interview.
struct CodeRule {
  std::map<std::string, int> points;  // "none" (nothing built), "fail", "slow", "pass", "optimal"
  int explained_gap = 0;              // added when one scenario alone is below the rest, explained
  int insight_hint = 0;               // taken once, from the first insight hint given
  int unseen_fail_cap = 0;            // the most a `fail` on a seed never seen leaves
};

// One format of interview (45 minutes, 15 minutes), with its own rule.
struct Format {
  std::string name;
  int minutes = 0;
  CodeRule code;
  std::vector<Dimension> dimensions;
  std::vector<Outcome> outcomes;  // best first
  std::string reading;            // the sentence under the card's table
};

// An example the card gives for an outcome, with a program of the kit that grades as it says.
struct Anchor {
  std::string name;                   // its test: anchor.<exercise>.<name>
  std::string outcome;                // the row it illustrates
  std::string says;                   // the card's words
  std::string program;                // a kit file, from the kit's root
  Tier verdict = Tier::fail;          // its overall tier on the default set
  bool one_below = false;             // in one scenario alone, the others better
  bool explained = false;             // that scenario explained from the report
  int hints = 0;                      // the highest hint given (0: none)
  std::map<std::string, int> scores;  // other sub-scores the example fixes ("design": 1)
};

struct ExerciseRule {
  int first_insight_hint = 0;                          // hints from this one on cost the code score
  std::map<std::string, std::vector<Anchor>> anchors;  // by format
  // By format, when it grades one scenario alone (15 minutes: one named scenario); a format
  // not named grades every scenario.
  std::map<std::string, std::string> scenario;
  std::map<std::string, std::vector<int>> hints;  // by format, the hints it uses (else every one)

  const std::string* scenario_of(const std::string& format) const;
};

struct ScoreRule {
  std::map<std::string, Format> formats;
  std::map<std::string, ExerciseRule> exercises;

  const Format& format(const std::string& name) const;
  const ExerciseRule& exercise(const std::string& name) const;
};

// Throws std::runtime_error naming what is missing or malformed.
ScoreRule read_score_rule(const std::string& path);
ScoreRule parse_score_rule(const std::string& json_text);

// What the code score is computed from.
struct CodeInputs {
  std::vector<Tier> tiers;           // the latest tier of each scenario graded; empty: none built
  bool gap_explained = false;        // the candidate explained the one slower scenario
  int first_insight_hint_given = 0;  // 0: no insight hint
  std::optional<Tier> unseen;        // overall tier on a seed the candidate never saw
};

struct SubScore {
  int value = 0;
  std::string reason;
};

SubScore code_score(const CodeRule& rule, const ExerciseRule& exercise, const CodeInputs& in);

// The row each sub-score falls in (index into outcomes), or nullopt when it falls in none or
// more than one (a hole in the data: the totality test looks for them).
std::optional<std::size_t> row_of(const Format& f, const std::string& dimension, int value);

// Every outcome whose condition holds for these sub-scores (exactly one for a total rule).
std::vector<std::size_t> outcomes_holding(const Format& f,
                                          const std::map<std::string, int>& scores);

// The card's table, in Markdown: an outcome per row, a column per sub-score group, the anchors.
std::string card_table(const Format& f, const std::vector<Anchor>& anchors);

// What only the interviewer knows, as marked: each 0, 1 or 2 unless said.
struct Marks {
  std::vector<int> predictions;  // two
  int communication = 0;
  std::vector<int> follow_ups;  // two or three
  int approach = 0;             // the approach explained before coding
  int debrief = 0;              // the debrief question
  bool defended = false;        // a misunderstanding defended
};

// A mark as the interviewer gave it: a value, or nothing for a question not asked (`-`). A
// question not asked never becomes a zero: it leaves its cell blank.
using Given = std::optional<int>;
struct GivenMarks {
  std::vector<Given> predictions;
  Given communication;
  std::vector<Given> follow_ups;
  Given approach;
  Given debrief;
  Given defended = 0;       // a flag: 1 when it holds, 0 when it does not
  Given gap_explained = 0;  // a flag: the one slower scenario explained
};

// The outcome from marks some of which were not asked: as if each were a blank cell (at its
// best), the lowest they could make it, and for each question not asked that could lower it, the
// outcome it would give and when ("the predictions add up to 0–1").
struct Reading {
  struct Deciding {
    std::size_t outcome = 0;
    std::string when;
  };
  std::size_t outcome = 0;
  std::size_t lowest = 0;
  std::vector<Deciding> deciding;
};

// The marks with each one not asked at the value that limits nothing, as a blank cell.
Marks as_blank_cells(const GivenMarks& given);

// `code(gap_explained)` is the code score for that answer. Throws std::runtime_error when the
// rule gives no single outcome for some marks (its data is not total).
Reading read_marks(const Format& f, const std::function<int(bool)>& code, const GivenMarks& given);

// The options of `score` a format's sub-scores read ("--predictions", ...), besides the flags;
// and the option that gives a sub-score (nothing for `code`, from the session).
std::vector<std::string> marks_needed(const Format& f);
std::string option_of(const std::string& dimension);

// The format's sub-scores from the code score and the marks. Throws std::runtime_error for a
// sub-score the kit does not compute.
std::map<std::string, int> sub_scores(const Format& f, int code, const Marks& marks);

// The sub-scores of the follow-ups, from each question's 0, 1 or 2.
int weak_follow_ups(const std::vector<int>& follow_ups);
int half_the_points(const std::vector<int>& follow_ups);  // 1 when at least half, else 0

}  // namespace overlap::interview
