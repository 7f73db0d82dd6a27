#include "session_cli.hpp"

#include <fmt/format.h>
#include <unistd.h>

#include <boost/describe/enum_from_string.hpp>
#include <boost/json.hpp>
#include <boost/program_options.hpp>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <map>
#include <sstream>

#include "../judge/files.hpp"
#include "../judge/options.hpp"
#include "../verdict/verdict.hpp"
#include "../worlds/common/generated.hpp"
#include "judge_run.hpp"
#include "score_rule.hpp"
#include "session.hpp"
#include "session_page.hpp"

namespace overlap::interview {

namespace fs = std::filesystem;
namespace json = boost::json;
namespace po = boost::program_options;

namespace {

constexpr int kUsage = 2;
constexpr int kRecordError = 4;
constexpr const char* kDefaultFormat = "45-minute";
constexpr const char* kExportSchema = "overlap-session";

struct UsageError : std::runtime_error {
  using std::runtime_error::runtime_error;
};

std::string readable_text(const fs::path& path) {
  std::optional<std::string> text = judge::file_bytes(path);
  if (!text) throw UsageError("cannot read " + path.string());
  return std::move(*text);
}

void write_text(const fs::path& path, const std::string& text) {
  std::ofstream out(path, std::ios::binary);
  out << text;
  if (!out) throw UsageError("cannot write " + path.string());
}

// The options shared by the commands, parsed with the exercise as the first argument.
po::variables_map parse(int argc, char** argv, const po::options_description& options) {
  po::positional_options_description positional;
  positional.add("exercise", 1);
  po::variables_map args;
  try {
    po::store(po::command_line_parser(argc, argv).options(options).positional(positional).run(),
              args);
    po::notify(args);
  } catch (const po::error& e) {
    throw UsageError(e.what());
  }
  if (!args.count("exercise")) throw UsageError("name an exercise");
  return args;
}

fs::path sessions_of(const po::variables_map& args) {
  if (!args.count("sessions")) throw UsageError("--sessions DIR is required");
  return args["sessions"].as<std::string>();
}

// The session as it stands: its folder and events (none yet: an empty record).
struct Record {
  fs::path folder;
  std::vector<Event> events;
};
Record current_record(const fs::path& sessions) {
  Record r{current_session(sessions), {}};
  r.events = read_events(r.folder);
  return r;
}

void print_progression(const std::string& exercise, const Record& record) {
  const std::vector<Step> steps = steps_of(record.events);
  fmt::print("{}: session {} (minutes from its start)\n", exercise,
             record.folder.filename().string());
  for (const Step& s : steps) {
    const Event& e = *s.event;
    if (e.kind == Event::Kind::start) {
      fmt::print("{:>4}  session started\n", s.minute);
    } else if (e.kind == Event::Kind::hint) {
      fmt::print("{:>4}  hint {}, {}\n", s.minute, e.hint, e.shown ? "shown" : "given aloud");
    } else if (!e.built) {
      fmt::print("{:>4}  version {}: did not build\n", s.minute, s.version);
    } else {
      std::vector<std::string> tiers;
      std::string first;
      for (const ScenarioLine& l : e.scenarios) {
        tiers.push_back(fmt::format("{} {}", l.name, verdict::tier_name(l.verdict)));
        if (first.empty() && !l.violation.empty()) first = l.name + ": " + l.violation;
      }
      fmt::print("{:>4}  version {}, seed {}: {}  ({})\n", s.minute, s.version, e.seed,
                 verdict::tier_name(e.verdict), fmt::join(tiers, ", "));
      if (!first.empty()) fmt::print("        first violation: {}\n", first);
    }
  }
}

json::value export_json(const std::string& exercise, const Record& record) {
  json::array events;
  for (const Event& e : record.events) events.push_back(json::parse(to_json_line(e)));
  return json::object{{"schema", kExportSchema},
                      {"schema_version", 1},
                      {"exercise", exercise},
                      {"session", record.folder.filename().string()},
                      {"events", std::move(events)}};
}

// What a grade's options say of the record: the file graded (--saved, or else --submission), the
// scenarios asked for, and the JSON report asked for ("" for none).
struct GradeAsked {
  std::string file;
  std::string report;
  std::string scenario;
  std::uint64_t seed = worlds::kPublicSeed;
  int generated = worlds::kDefaultGenerated;
};
GradeAsked asked_of(const std::vector<std::string>& judge_args) {
  std::vector<char*> argv = {const_cast<char*>("overlap-judge")};
  for (const std::string& a : judge_args) argv.push_back(const_cast<char*>(a.c_str()));
  po::variables_map args;
  try {
    args = judge::parse_options(static_cast<int>(argv.size()), argv.data());
  } catch (const judge::OptionError&) {
    return {};  // the judge names what is wrong; nothing is graded, nothing recorded
  }
  GradeAsked asked;
  for (const char* option : {"saved", "submission"}) {
    if (asked.file.empty() && args.count(option)) asked.file = args[option].as<std::string>();
  }
  if (args.count("json")) asked.report = args["json"].as<std::string>();
  if (args.count("scenario")) asked.scenario = args["scenario"].as<std::string>();
  if (args.count("seed")) asked.seed = args["seed"].as<std::uint64_t>();
  asked.generated = args["generated"].as<int>();
  return asked;
}

// A file over this is refused by the judge unread, and recorded without its text.
constexpr std::uintmax_t kMaxSourceBytes = 16 << 20;

// What the judge printed on standard error without its own lines ("overlap: building the
// submission ..."): the compiler's messages, or what the build refused.
std::string without_the_judges_lines(const std::string& messages) {
  std::istringstream in(messages);
  std::string out;
  for (std::string line; std::getline(in, line);) {
    if (!line.starts_with("overlap: ")) out += line + '\n';
  }
  return out;
}

// Runs the judge on a version of the candidate's file and records the grade in `session` (when
// there is one) at `time`: a grade it reported (exit 0 or 1) with its tiers, or one that did not
// build (exit 3) with the compiler's messages; a usage or grader error records nothing. The
// judge's exit code.
int grade_into(const std::optional<fs::path>& session, const std::string& judge_program,
               const std::string& exercise, const std::vector<std::string>& judge_args,
               std::int64_t time, bool pass_through) {
  const GradeAsked asked = asked_of(judge_args);
  std::optional<std::string> source;
  if (!asked.file.empty() && fs::is_regular_file(asked.file) &&
      fs::file_size(asked.file) <= kMaxSourceBytes) {
    source = judge::file_bytes(asked.file);
  }
  std::vector<std::string> args = {exercise};
  args.insert(args.end(), judge_args.begin(), judge_args.end());
  const JudgeRun run = run_judge(judge_program, args, asked.report, pass_through);
  if (!session) return run.exit;
  try {
    if (run.exit == 3) {
      append(*session,
             build_failure_event(source.value_or(""), time, asked.seed, asked.scenario,
                                 asked.generated, without_the_judges_lines(run.messages)));
    } else if (run.report && source) {
      append(*session,
             grade_event(*run.report, *source, time, asked.scenario, asked.generated, run.printed));
    } else if (run.exit == 0 || run.exit == 1) {
      throw std::runtime_error("the judge graded without a report to record");
    }
  } catch (const std::exception& e) {
    fmt::print(stderr, "overlap: the session did not record this grade: {}\n", e.what());
  }
  return run.exit;
}

// The judge itself, grading one version into the session at the candidate's time.
int regrade(const std::string& exercise, const std::string& judge_program, const fs::path& session,
            const Event& e, const fs::path& work) {
  const fs::path file = work / "train.cpp";
  write_text(file, e.source);
  std::vector<std::string> args = {"--submission",
                                   file.string(),
                                   "--submission-name",
                                   fmt::format("exercises/{}/train.cpp", exercise),
                                   "--seed",
                                   std::to_string(e.seed),
                                   "--generated",
                                   std::to_string(e.generated)};
  if (!e.scenario.empty()) {
    args.insert(args.end(), {"--scenario", e.scenario});
  }
  return grade_into(session, judge_program, exercise, args, e.time, false);
}

const char* outcome_of(const Event& e) {
  return e.built ? verdict::tier_name(e.verdict) : "did not build";
}

// A candidate's exported session, regraded here: a new session with their times and hints, and
// this kit's verdicts on every version, compared with the ones they brought.
int import_session(const std::string& exercise, const std::string& judge_program,
                   const fs::path& sessions, const fs::path& file) {
  json::object exported;
  std::vector<Event> events;
  try {
    exported = json::parse(readable_text(file)).as_object();
    if (exported.at("schema").as_string() != kExportSchema) throw UsageError("");
    for (const json::value& v : exported.at("events").as_array()) {
      events.push_back(from_json_text(json::serialize(v)));
    }
  } catch (const std::exception&) {
    throw UsageError(file.string() + " is not a session exported by ./overlap session --export");
  }
  if (exported.at("exercise").as_string() != exercise) {
    throw UsageError(fmt::format("{} is a session of {}, not {}", file.string(),
                                 std::string(exported.at("exercise").as_string()), exercise));
  }
  const std::int64_t start = events.empty() ? now_seconds() : events.front().time;
  const fs::path folder = start_session(sessions, start);
  const fs::path work = fs::temp_directory_path() / fmt::format("overlap-import-{}", ::getpid());
  fs::create_directories(work);
  int versions = 0, differ = 0;
  const std::vector<Step> steps = steps_of(events);
  for (const Step& s : steps) {
    const Event& e = *s.event;
    if (e.kind == Event::Kind::hint) append(folder, e);
    if (e.kind != Event::Kind::grade) continue;
    const int exit = regrade(exercise, judge_program, folder, e, work);
    if (exit == kUsage || exit >= kRecordError) {
      fs::remove_all(work);
      throw std::runtime_error(fmt::format(
          "the judge could not regrade version {} (exit {}): run ./overlap grade {} once to "
          "check the kit",
          s.version, exit, exercise));
    }
    const std::vector<Event> now = read_events(folder);
    if (now.empty() || now.back().kind != Event::Kind::grade || now.back().time != e.time) {
      fs::remove_all(work);
      throw std::runtime_error(fmt::format("version {} was regraded but not recorded", s.version));
    }
    const Event& mine = now.back();
    ++versions;
    const bool same = mine.built == e.built && (!e.built || mine.verdict == e.verdict);
    if (!same) ++differ;
    fmt::print("minute {:>3}, version {}: the record says {}, this kit grades {}{}\n", s.minute,
               s.version, outcome_of(e), outcome_of(mine), same ? "" : "  <- differs");
  }
  fs::remove_all(work);
  fmt::print(
      "overlap: regraded the record's {} grades into session {}; {} differ from the record\n",
      versions, folder.filename().string(), differ);
  return 0;
}

int session_command(int argc, char** argv) {
  po::options_description options("session options");
  options.add_options()                       //
      ("exercise", po::value<std::string>())  //
      ("sessions", po::value<std::string>())  //
      ("hint", po::value<int>())              //
      ("shown", po::value<int>())             //
      ("reset", "")                           //
      ("html", po::value<std::string>())      //
      ("export", po::value<std::string>())    //
      ("import", po::value<std::string>())    //
      ("judge", po::value<std::string>())     //
      ("last", po::value<std::string>());
  const po::variables_map args = parse(argc, argv, options);
  const std::string exercise = args["exercise"].as<std::string>();
  const fs::path sessions = sessions_of(args);
  int actions = 0;
  for (const char* a : {"hint", "shown", "reset", "html", "export", "import", "last"}) {
    actions += static_cast<int>(args.count(a));
  }
  if (actions > 1) {
    throw UsageError("one of --hint, --reset, --html, --export, --import or --last at a time");
  }
  if (args.count("reset")) {
    const fs::path folder = start_session(sessions, now_seconds());
    fmt::print("overlap: a new {} session, {} (the earlier ones stay in {})\n", exercise,
               folder.filename().string(), sessions.string());
    return 0;
  }
  if (args.count("import")) {
    if (!args.count("judge"))
      throw UsageError("--import needs the judge that regrades: --judge FILE");
    return import_session(exercise, args["judge"].as<std::string>(), sessions,
                          args["import"].as<std::string>());
  }
  if (args.count("hint") || args.count("shown")) {
    const bool shown = args.count("shown");
    Event e;
    e.kind = Event::Kind::hint;
    e.time = now_seconds();
    e.hint = args[shown ? "shown" : "hint"].as<int>();
    e.shown = shown;
    if (e.hint < 1) throw UsageError("a hint's number is 1 or more");
    const Record record = current_record(sessions);
    append(record.folder, e);
    if (!shown) {
      fmt::print("overlap: hint {} recorded at minute {} of session {}\n", e.hint,
                 (e.time - record.events.front().time) / 60, record.folder.filename().string());
    }
    return 0;
  }
  const Record record = current_record(sessions);
  if (args.count("html")) {
    const std::string file = args["html"].as<std::string>();
    write_text(file, session_page(exercise, record.folder.filename().string(), record.events));
    fmt::print("overlap: {} written: session {}\n", file, record.folder.filename().string());
    return 0;
  }
  if (args.count("last")) {  // the file to grade on an unseen seed afterwards
    const Event* last = nullptr;
    for (const Event& e : record.events) {
      if (e.kind == Event::Kind::grade) last = &e;
    }
    if (!last) throw UsageError("the session has no grade yet");
    write_text(args["last"].as<std::string>(), last->source);
    fmt::print("overlap: {} written: the last version graded\n", args["last"].as<std::string>());
    return 0;
  }
  if (args.count("export")) {
    const std::string file = args["export"].as<std::string>();
    write_text(file, json::serialize(export_json(exercise, record)) + "\n");
    fmt::print("overlap: {} written: session {}, for the interviewer's --import\n", file,
               record.folder.filename().string());
    return 0;
  }
  print_progression(exercise, record);
  return 0;
}

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

// A grade of the candidate's file, run by the judge as a user runs it and recorded:
//   grade EXERCISE --sessions DIR --judge FILE -- JUDGE_OPTIONS
// The judge's output is passed through and its exit code returned; a failure to record is said
// and changes neither.
int grade_command(int argc, char** argv) {
  int split = 1;
  while (split < argc && std::string_view(argv[split]) != "--") ++split;
  po::options_description options("grade options");
  options.add_options()                       //
      ("exercise", po::value<std::string>())  //
      ("sessions", po::value<std::string>())  //
      ("judge", po::value<std::string>());
  const po::variables_map args = parse(split, argv, options);
  if (!args.count("judge")) throw UsageError("grade needs the judge: --judge FILE");
  const std::vector<std::string> judge_args(argv + std::min(split + 1, argc), argv + argc);
  std::optional<fs::path> session;
  try {
    session = current_session(sessions_of(args));
  } catch (const std::exception& e) {
    fmt::print(stderr, "overlap: the session cannot record this grade: {}\n", e.what());
  }
  return grade_into(session, args["judge"].as<std::string>(), args["exercise"].as<std::string>(),
                    judge_args, now_seconds(), true);
}

int card_command(int argc, char** argv) {
  po::options_description options("card options");
  options.add_options()                       //
      ("exercise", po::value<std::string>())  //
      ("rule", po::value<std::string>())      //
      ("format", po::value<std::string>());
  const po::variables_map args = parse(argc, argv, options);
  if (!args.count("rule")) throw UsageError("--rule FILE is required");
  const ScoreRule rule = read_score_rule(args["rule"].as<std::string>());
  const std::string format_name =
      args.count("format") ? args["format"].as<std::string>() : kDefaultFormat;
  const ExerciseRule& ex = rule.exercise(args["exercise"].as<std::string>());
  const auto anchors = ex.anchors.find(format_name);
  const Format& format = rule.format(format_name);
  std::cout << card_table(format,
                          anchors == ex.anchors.end() ? std::vector<Anchor>{} : anchors->second)
            << '\n'
            << format.reading << '\n';
  return 0;
}

int guarded(int (*command)(int, char**), int argc, char** argv) {
  try {
    return command(argc, argv);
  } catch (const UsageError& e) {
    fmt::print(stderr, "overlap: {}\n", e.what());
    return kUsage;
  } catch (const std::exception& e) {
    fmt::print(stderr, "overlap: {}\n", e.what());
    return kRecordError;
  }
}

}  // namespace

int session_main(int argc, char** argv) { return guarded(session_command, argc, argv); }
int score_main(int argc, char** argv) { return guarded(score_command, argc, argv); }
int card_main(int argc, char** argv) { return guarded(card_command, argc, argv); }
int grade_main(int argc, char** argv) { return guarded(grade_command, argc, argv); }

}  // namespace overlap::interview
