#include <fmt/format.h>

#include <boost/describe/enum_from_string.hpp>
#include <boost/json.hpp>
#include <boost/program_options.hpp>
#include <map>
#include <sstream>

#include "../verdict/verdict.hpp"
#include "command_line.hpp"
#include "commands.hpp"
#include "score_rule.hpp"
#include "session.hpp"

namespace overlap::interview {

namespace json = boost::json;
namespace po = boost::program_options;

namespace {

// "2,1" as numbers, each within [0, most]; `count` how many may be given.
std::vector<int> marks(const std::string& text, const char* what, int most, std::size_t fewest,
                       std::size_t count) {
  std::vector<int> out;
  std::istringstream in(text);
  for (std::string item; std::getline(in, item, ',');) {
    if (item.size() != 1 || item[0] < '0' || item[0] - '0' > most) {
      throw UsageError(fmt::format("{}: each is 0 to {}, in \"{}\"", what, most, text));
    }
    out.push_back(item[0] - '0');
  }
  if (out.size() < fewest || out.size() > count) {
    throw UsageError(fmt::format("{}: give {} to {} marks, comma-separated", what, fewest, count));
  }
  return out;
}

// The overall tier of a report of the session's last version on a seed the candidate never saw.
verdict::Tier unseen_tier(const std::string& file, const std::string& exercise,
                          const std::vector<Event>& events) {
  std::string exercise_of, sha, verdict;
  std::uint64_t seed = 0;
  try {
    const json::object report = json::parse(readable_text(file)).as_object();
    exercise_of = report.at("exercise").as_string();
    sha = report.at("provenance").as_object().at("submission_sha256").as_string();
    verdict = report.at("verdict").as_string();
    seed = report.at("seed").to_number<std::uint64_t>();
  } catch (const std::exception&) {
    throw UsageError(file + " is not a JSON report of overlap (grade's --json)");
  }
  if (exercise_of != exercise) throw UsageError(file + " is a report of another exercise");
  const Event* last = nullptr;
  for (const Event& e : events) {
    if (e.kind == Event::Kind::grade) last = &e;
    if (e.kind == Event::Kind::grade && e.seed == seed) {
      throw UsageError(fmt::format("{} is graded on seed {}, which the candidate saw", file, seed));
    }
  }
  if (!last || sha != last->sha256) {
    throw UsageError(file +
                     " grades another file than the session's last version: grade that version "
                     "(./overlap session --export holds it)");
  }
  verdict::Tier tier{};
  if (!boost::describe::enum_from_string(verdict.c_str(), tier)) {
    throw UsageError(file + " is not a JSON report of overlap (grade's --json)");
  }
  return tier;
}

// What the code score reads from the session: each scenario's latest tier (the stretch ones are
// follow-ups; a format of one scenario reads that one alone) and the first insight hint given;
// and the same, in words, for the printout.
struct Facts {
  CodeInputs code;
  std::string tiers, hints;
  bool last_not_built = false;
};
Facts facts_of(const std::vector<Event>& events, const ExerciseRule& ex,
               const std::string* only_scenario) {
  Facts f;
  std::map<std::string, std::pair<verdict::Tier, int>> latest;  // scenario -> tier, minute
  std::vector<std::string> hints;
  for (const Step& s : steps_of(events)) {
    const Event& e = *s.event;
    if (e.kind == Event::Kind::hint) {
      hints.push_back(fmt::format("{} ({}{})", e.hint, s.minute, e.shown ? ", shown" : ""));
      if (e.hint >= ex.first_insight_hint && f.code.first_insight_hint_given == 0) {
        f.code.first_insight_hint_given = e.hint;
      }
    }
    if (e.kind != Event::Kind::grade) continue;
    f.last_not_built = !e.built;
    for (const ScenarioLine& l : e.scenarios) {
      if (only_scenario ? l.name == *only_scenario : !l.name.starts_with("stretch")) {
        latest[l.name] = {l.verdict, s.minute};
      }
    }
  }
  std::vector<std::string> tiers;
  for (const auto& [name, tier] : latest) {
    f.code.tiers.push_back(tier.first);
    tiers.push_back(fmt::format("{} {} ({})", name, verdict::tier_name(tier.first), tier.second));
  }
  f.tiers = fmt::format("{}", fmt::join(tiers, ", "));
  f.hints = fmt::format("{}", fmt::join(hints, ", "));
  return f;
}

// The interviewer's marks the format asks for: each option it needs given, none it does not.
Marks marks_of(const po::variables_map& args, const Format& format) {
  const std::vector<std::string> needed = marks_needed(format);
  const auto needs = [&](const std::string& o) {
    return std::find(needed.begin(), needed.end(), o) != needed.end();
  };
  std::vector<std::string> missing, unused;
  for (const char* o :
       {"--predictions", "--communication", "--follow-ups", "--approach", "--debrief"}) {
    const bool given = args.count(o + 2);
    if (needs(o) && !given) missing.push_back(o);
    if (!needs(o) && given) unused.push_back(o);
  }
  if (!unused.empty()) {
    throw UsageError(fmt::format("the {} rule does not ask for {}: it needs {}", format.name,
                                 fmt::join(unused, ", "), fmt::join(needed, ", ")));
  }
  if (!missing.empty()) {
    throw UsageError(fmt::format(
        "the {} rule asks what only you know: give {} (--predictions A,B: each prediction 2 "
        "right, 1 partly, 0 none; --communication, --approach, --debrief 0-2; --follow-ups "
        "A,B[,C]: each 2 good, 1 partial, 0 weak; and, when they hold, --gap-explained, "
        "--defended, --unseen REPORT.json)",
        format.name, fmt::join(missing, ", ")));
  }
  // `o` is the option as written ("--approach"); the variables map keys it without the dashes.
  const auto one = [&](const char* o) {
    return marks(args[o + 2].as<std::string>(), o, 2, 1, 1)[0];
  };
  Marks m;
  if (needs("--predictions")) {
    m.predictions = marks(args["predictions"].as<std::string>(), "--predictions", 2, 2, 2);
  }
  if (needs("--communication")) m.communication = one("--communication");
  if (needs("--follow-ups")) {
    m.follow_ups = marks(args["follow-ups"].as<std::string>(), "--follow-ups", 2, 2, 3);
  }
  if (needs("--approach")) m.approach = one("--approach");
  if (needs("--debrief")) m.debrief = one("--debrief");
  m.defended = args.count("defended");
  return m;
}

// Each sub-score's reason, in words.
std::string reason_of(const std::string& dimension, const Marks& m, const SubScore& code) {
  if (dimension == "code") return code.reason;
  if (dimension == "misunderstanding defended") return m.defended ? "yes (--defended)" : "no";
  if (dimension == "design") {
    return fmt::format("predictions {} + {}", m.predictions[0], m.predictions[1]);
  }
  if (dimension.find("follow-up") != std::string::npos) {
    return fmt::format("follow-ups {}", fmt::join(m.follow_ups, ", "));
  }
  return "as you marked it";
}

int score_command(int argc, char** argv) {
  po::options_description options("score options");
  options.add_options()                            //
      ("exercise", po::value<std::string>())       //
      ("sessions", po::value<std::string>())       //
      ("rule", po::value<std::string>())           //
      ("format", po::value<std::string>())         //
      ("predictions", po::value<std::string>())    //
      ("communication", po::value<std::string>())  //
      ("follow-ups", po::value<std::string>())     //
      ("approach", po::value<std::string>())       //
      ("debrief", po::value<std::string>())        //
      ("gap-explained", "")                        //
      ("defended", "")                             //
      ("unseen", po::value<std::string>());
  const po::variables_map args = parse(argc, argv, options);
  const std::string exercise = args["exercise"].as<std::string>();
  if (!args.count("rule")) throw UsageError("give the score rule: --rule FILE");
  const ScoreRule rule = read_score_rule(args["rule"].as<std::string>());
  const std::string format_name =
      args.count("format") ? args["format"].as<std::string>() : kDefaultFormat;
  if (!rule.formats.contains(format_name)) {
    std::vector<std::string> names;
    for (const auto& [name, f] : rule.formats) names.push_back(name);
    throw UsageError(
        fmt::format("no format '{}'; the rule has {}", format_name, fmt::join(names, ", ")));
  }
  const Format& format = rule.format(format_name);
  const ExerciseRule& ex = rule.exercise(exercise);
  const Marks marks = marks_of(args, format);
  const Record record = current_record(sessions_of(args));

  const std::string* only = ex.scenario_of(format_name);
  const Facts facts = facts_of(record.events, ex, only);
  CodeInputs code_in = facts.code;
  code_in.gap_explained = args.count("gap-explained");
  if (args.count("unseen")) {
    code_in.unseen = unseen_tier(args["unseen"].as<std::string>(), exercise, record.events);
  }
  SubScore code = code_score(format.code, ex, code_in);
  if (only && code_in.tiers.empty()) code.reason = fmt::format("`{}` never graded", *only);
  const std::map<std::string, int> scores = sub_scores(format, code.value, marks);

  fmt::print("{}: session {}, the {} rule\n", exercise, record.folder.filename().string(),
             format.name);
  if (only) {
    fmt::print("  scenario `{}` (latest tier, minute): {}\n", *only,
               facts.tiers.empty() ? "never graded" : facts.tiers);
  } else {
    fmt::print("  scenarios (latest tier, minute): {}\n",
               facts.tiers.empty() ? "none built" : facts.tiers);
  }
  fmt::print("  hints (minute): {}\n", facts.hints.empty() ? "none" : facts.hints);
  if (facts.last_not_built) {
    fmt::print("  the last version graded did not build: the tiers are the last that built\n");
  }
  for (const Dimension& d : format.dimensions) {
    const int value = scores.at(d.name);
    const auto row = row_of(format, d.name, value);
    fmt::print("  {:<27} {}  row {}: {}\n", d.name, value,
               row ? format.outcomes[*row].name : "none (the rule's data has a hole)",
               reason_of(d.name, marks, code));
  }
  const std::vector<std::size_t> holding = outcomes_holding(format, scores);
  if (holding.size() != 1) {
    fmt::print(stderr, "overlap: the rule gives {} outcomes here: its data is not total\n",
               holding.size());
    return kRecordError;
  }
  fmt::print("outcome: {}\n", format.outcomes[holding.front()].name);
  return 0;
}

}  // namespace

int score_main(int argc, char** argv) { return guarded(score_command, argc, argv); }

}  // namespace overlap::interview
