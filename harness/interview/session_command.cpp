#include <fmt/format.h>
#include <unistd.h>

#include <boost/json.hpp>
#include <boost/program_options.hpp>
#include <filesystem>

#include "../verdict/verdict.hpp"
#include "command_line.hpp"
#include "commands.hpp"
#include "grade_command.hpp"
#include "session.hpp"
#include "session_page.hpp"

namespace overlap::interview {

namespace fs = std::filesystem;
namespace json = boost::json;
namespace po = boost::program_options;

namespace {

constexpr const char* kExportSchema = "overlap-session";

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

}  // namespace

int session_main(int argc, char** argv) { return guarded(session_command, argc, argv); }

}  // namespace overlap::interview
