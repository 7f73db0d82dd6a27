#include <fmt/format.h>
#include <unistd.h>

#include <algorithm>
#include <boost/describe/enum_from_string.hpp>
#include <boost/json.hpp>
#include <boost/program_options.hpp>
#include <map>
#include <sstream>

#include "../verdict/verdict.hpp"
#include "../worlds/common/generated.hpp"
#include "command_line.hpp"
#include "commands.hpp"
#include "judge_run.hpp"
#include "score_rule.hpp"
#include "session.hpp"

namespace overlap::interview {

namespace fs = std::filesystem;
namespace json = boost::json;
namespace po = boost::program_options;

namespace {

// "2,1" or "2,-" as marks, each 0 to `most` or `-` (not asked); `fewest` to `count` of them.
std::vector<Given> marks(const std::string& text, const char* what, int most, std::size_t fewest,
                         std::size_t count) {
  std::vector<Given> out;
  std::istringstream in(text);
  for (std::string item; std::getline(in, item, ',');) {
    if (item == "-") {
      out.push_back(std::nullopt);
      continue;
    }
    if (item.size() != 1 || item[0] < '0' || item[0] - '0' > most) {
      throw UsageError(
          fmt::format("{}: each is 0 to {}, or - when not asked, in \"{}\"", what, most, text));
    }
    out.push_back(item[0] - '0');
  }
  if (out.size() < fewest || out.size() > count) {
    throw UsageError(fmt::format("{}: give {} to {} marks, comma-separated", what, fewest, count));
  }
  return out;
}

// A flag as given: absent 0, `--flag` 1, `--flag=-` not asked.
Given flag(const po::variables_map& args, const char* name) {
  if (!args.count(name)) return 0;
  const std::string value = args[name].as<std::string>();
  if (value == "-") return std::nullopt;
  if (value != "1") throw UsageError(fmt::format("--{} takes no value but - (not asked)", name));
  return 1;
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

// Whether `e` is this kit's grade of its file on the default set: the named scenarios and the
// public seed's generated ones, what a plain `overlap grade` runs.
bool on_the_default_set(const Event& e) {
  return e.kind == Event::Kind::grade && e.built && e.full_set && trusted(e);
}

// The session's final version: the text of its last grade that built (nullptr: none did), and
// whether a later one did not build.
struct Final {
  const Event* version = nullptr;
  bool later_not_built = false;
};
Final final_version(const std::vector<Event>& events) {
  Final f;
  for (const Event& e : events) {
    if (e.kind != Event::Kind::grade || !trusted(e)) continue;  // not a claim of another machine
    if (e.built) f.version = &e;
    f.later_not_built = !e.built;
  }
  return f;
}

// The grade of the final version on the default set, if the session has one.
const Event* final_grade(const std::vector<Event>& events, const Final& final) {
  const Event* found = nullptr;
  for (const Event& e : events) {
    if (on_the_default_set(e) && e.sha256 == final.version->sha256) found = &e;
  }
  return found;
}

// The final version graded on the default set by this kit's judge, as an event of its own (the
// record is left as it is: a score reads it, never writes it).
Event grade_final(const std::string& exercise, const std::string& judge, const Event& version) {
  const fs::path work = fs::temp_directory_path() / fmt::format("overlap-score-{}", ::getpid());
  fs::create_directories(work);
  const fs::path file = work / "train.cpp";
  write_text(file, version.source);
  const JudgeRun run = run_judge(judge,
                                 {exercise, "--submission", file.string(), "--submission-name",
                                  fmt::format("exercises/{}/train.cpp", exercise)},
                                 "", false);
  fs::remove_all(work);
  if ((run.exit != 0 && run.exit != 1) || !run.report) {
    throw std::runtime_error(fmt::format(
        "the judge could not grade the final version (exit {}): run ./overlap grade {} once to "
        "check the kit",
        run.exit, exercise));
  }
  return grade_event(*run.report, version.source, now_seconds(), "", worlds::kDefaultGenerated,
                     run.printed);
}

// What the code score reads: each scenario's tier in `graded`, the final version's grade on the
// default set (the stretch ones are follow-ups; a format of one scenario reads that one alone),
// and from the session the first insight hint given; and the same, in words.
struct Facts {
  CodeInputs code;
  std::string tiers, hints;
};
Facts facts_of(const std::vector<Event>& events, const ExerciseRule& ex,
               const std::string* only_scenario, const Event* graded) {
  Facts f;
  std::vector<std::string> hints;
  std::vector<std::string> tiers;
  for (const Step& s : steps_of(events)) {
    const Event& e = *s.event;
    if (e.kind == Event::Kind::hint && trusted(e)) {  // given here, not a record's claim
      hints.push_back(fmt::format("{} ({}{})", e.hint, s.minute, e.shown ? ", shown" : ""));
      if (e.hint >= ex.first_insight_hint && f.code.first_insight_hint_given == 0) {
        f.code.first_insight_hint_given = e.hint;
      }
    }
  }
  if (graded) {
    for (const ScenarioLine& l : graded->scenarios) {
      if (only_scenario ? l.name == *only_scenario : !l.name.starts_with("stretch")) {
        f.code.tiers.push_back(l.verdict);
        tiers.push_back(fmt::format("{} {}", l.name, verdict::tier_name(l.verdict)));
      }
    }
  }
  f.tiers = fmt::format("{}", fmt::join(tiers, ", "));
  f.hints = fmt::format("{}", fmt::join(hints, ", "));
  return f;
}

// The interviewer's marks the format asks for: each option it needs given, none it does not.
GivenMarks marks_of(const po::variables_map& args, const Format& format) {
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
        "A,B[,C]: each 2 good, 1 partial, 0 weak; - for a question not asked, as in "
        "--predictions -,-; and, when they hold, --gap-explained, --defended (=- when not "
        "asked), --unseen REPORT.json)",
        format.name, fmt::join(missing, ", ")));
  }
  // `o` is the option as written ("--approach"); the variables map keys it without the dashes.
  const auto one = [&](const char* o) {
    return marks(args[o + 2].as<std::string>(), o, 2, 1, 1)[0];
  };
  // Marks the format does not read are 0: never a question to ask.
  GivenMarks m{{0, 0}, 0, {0, 0}, 0, 0};
  if (needs("--predictions")) {
    m.predictions = marks(args["predictions"].as<std::string>(), "--predictions", 2, 2, 2);
  }
  if (needs("--communication")) m.communication = one("--communication");
  if (needs("--follow-ups")) {
    m.follow_ups = marks(args["follow-ups"].as<std::string>(), "--follow-ups", 2, 2, 3);
  }
  if (needs("--approach")) m.approach = one("--approach");
  if (needs("--debrief")) m.debrief = one("--debrief");
  m.defended = flag(args, "defended");
  m.gap_explained = flag(args, "gap-explained");
  return m;
}

std::string mark_text(const Given& g) { return g ? std::to_string(*g) : "-"; }

// Each sub-score's reason, in words.
std::string reason_of(const std::string& dimension, const GivenMarks& m, const SubScore& code) {
  if (dimension == "code") return code.reason;
  if (dimension == "misunderstanding defended") {
    return !m.defended ? "not asked" : *m.defended ? "yes (--defended)" : "no";
  }
  std::vector<std::string> given;
  if (dimension == "design") {
    for (const Given& p : m.predictions) given.push_back(mark_text(p));
    return fmt::format("predictions {}", fmt::join(given, " + "));
  }
  if (dimension.find("follow-up") != std::string::npos) {
    for (const Given& f : m.follow_ups) given.push_back(mark_text(f));
    return fmt::format("follow-ups {}", fmt::join(given, ", "));
  }
  const Given& g = dimension == "communication" ? m.communication
                   : dimension == "approach"    ? m.approach
                                                : m.debrief;
  return g ? "as you marked it" : "not asked";
}

// The sub-score of `dimension` when some of its marks were not asked: "-".
bool asked(const std::string& dimension, const GivenMarks& m) {
  const auto all = [](const std::vector<Given>& v) {
    return std::all_of(v.begin(), v.end(), [](const Given& g) { return g.has_value(); });
  };
  if (dimension == "code") return m.gap_explained.has_value();
  if (dimension == "misunderstanding defended") return m.defended.has_value();
  if (dimension == "design") return all(m.predictions);
  if (dimension.find("follow-up") != std::string::npos) return all(m.follow_ups);
  if (dimension == "communication") return m.communication.has_value();
  if (dimension == "approach") return m.approach.has_value();
  return m.debrief.has_value();
}

int score_command(int argc, char** argv) {
  po::options_description options("score options");
  options.add_options()                                                 //
      ("exercise", po::value<std::string>())                            //
      ("sessions", po::value<std::string>())                            //
      ("rule", po::value<std::string>())                                //
      ("format", po::value<std::string>())                              //
      ("predictions", po::value<std::string>())                         //
      ("communication", po::value<std::string>())                       //
      ("follow-ups", po::value<std::string>())                          //
      ("approach", po::value<std::string>())                            //
      ("debrief", po::value<std::string>())                             //
      ("gap-explained", po::value<std::string>()->implicit_value("1"))  //
      ("defended", po::value<std::string>()->implicit_value("1"))       //
      ("judge", po::value<std::string>())                               //
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
  const GivenMarks marks = marks_of(args, format);
  const fs::path sessions = sessions_of(args);
  const Record record = current_record(sessions);

  // The code score is the final version's, on the default set, as this kit's judge grades it.
  const Final final = final_version(record.events);
  std::optional<Event> graded_now;
  const Event* graded = final.version ? final_grade(record.events, final) : nullptr;
  if (final.version && !graded) {
    if (!args.count("judge")) {
      throw UsageError(
          "the final version was never graded on the default set: give the judge that grades "
          "it, --judge FILE");
    }
    graded_now = grade_final(exercise, args["judge"].as<std::string>(), *final.version);
    graded = &*graded_now;
  }
  const std::string* only = ex.scenario_of(format_name);
  const Facts facts = facts_of(record.events, ex, only, graded);
  CodeInputs code_in = facts.code;
  if (args.count("unseen")) {
    code_in.unseen = unseen_tier(args["unseen"].as<std::string>(), exercise, record.events);
  }
  const auto code_for = [&](bool gap_explained) {
    CodeInputs in = code_in;
    in.gap_explained = gap_explained;
    return code_score(format.code, ex, in);
  };
  SubScore code = code_for(marks.gap_explained.value_or(1) == 1);
  if (only && code_in.tiers.empty()) code.reason = fmt::format("`{}` never graded", *only);
  const Reading reading = read_marks(
      format, [&](bool gap_explained) { return code_for(gap_explained).value; }, marks);
  // The sub-scores as the outcome reads them: each mark not asked a blank cell.
  const std::map<std::string, int> scores = sub_scores(format, code.value, as_blank_cells(marks));

  fmt::print("{}: session {}, the {} rule\n", exercise, record.folder.filename().string(),
             format.name);
  const std::string where = only ? fmt::format("scenario `{}`", *only) : "the default set";
  fmt::print("  the final version on {}{}: {}\n", where, graded_now ? ", graded now" : "",
             !final.version        ? "none built"
             : facts.tiers.empty() ? "not among its scenarios"
                                   : facts.tiers);
  fmt::print("  hints (minute): {}\n", facts.hints.empty() ? "none" : facts.hints);
  if (final.later_not_built) {
    fmt::print("  the last version graded did not build: the final version is the last that did\n");
  }
  for (const Dimension& d : format.dimensions) {
    if (!asked(d.name, marks)) {
      fmt::print("  {:<27} -  not asked: a blank cell ({})\n", d.name,
                 reason_of(d.name, marks, code));
      continue;
    }
    const int value = scores.at(d.name);
    const auto row = row_of(format, d.name, value);
    fmt::print("  {:<27} {}  row {}: {}\n", d.name, value,
               row ? format.outcomes[*row].name : "none (the rule's data has a hole)",
               reason_of(d.name, marks, code));
  }
  std::string outcome = format.outcomes[reading.outcome].name;
  if (!reading.deciding.empty()) {
    std::vector<std::string> lower;
    for (const Reading::Deciding& d : reading.deciding) {
      lower.push_back(fmt::format("{} if {}", format.outcomes[d.outcome].name, d.when));
    }
    outcome += fmt::format("; {}: ask {}", fmt::join(lower, "; "),
                           reading.deciding.size() == 1 ? "that question" : "those questions");
  }
  fmt::print("outcome: {}\n", outcome);
  if (reading.lowest != reading.outcome &&
      std::none_of(reading.deciding.begin(), reading.deciding.end(),
                   [&](const Reading::Deciding& d) { return d.outcome == reading.lowest; })) {
    fmt::print("  at the lowest, every question not asked answered badly: {}\n",
               format.outcomes[reading.lowest].name);
  }
  return 0;
}

}  // namespace

int score_main(int argc, char** argv) { return guarded(score_command, argc, argv); }

}  // namespace overlap::interview
