#include <fmt/format.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <boost/json.hpp>
#include <boost/program_options.hpp>
#include <exception>
#include <filesystem>
#include <optional>
#include <string_view>
#include <thread>
#include <unordered_map>

#include "../judge/sha256.hpp"
#include "../protocol/text.hpp"
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
// 2: with the time of the export (`exported_at`), which no event may follow. 1 is still read.
constexpr int kExportVersion = 2;
// The files of an import regraded (the newest); older ones are shown as recorded, unverified.
constexpr std::size_t kRegradedVersions = 15;
// Judges run at once by an import: each builds and grades on a core of its own.
constexpr unsigned kJudgesAtOnce = 2;
// How far a record's time may be ahead of this machine's clock (two clocks never quite agree).
constexpr std::int64_t kClockSlack = 24 * 60 * 60;

// A grade's tiers, scenario by scenario, for a line.
std::string tiers_of(const Event& e) {
  std::vector<std::string> tiers;
  for (const ScenarioLine& l : e.scenarios) {
    tiers.push_back(fmt::format("{} {}", one_line(l.name), verdict::tier_name(l.verdict)));
  }
  return fmt::format("{}", fmt::join(tiers, ", "));
}

void print_progression(const std::string& exercise, const Record& record) {
  const std::vector<Step> steps = steps_of(record.events);
  const bool imported = !record.events.empty() && record.events.front().reported;
  fmt::print("{}: session {} (minutes from its start{})\n", exercise,
             one_line(record.folder.filename().string()),
             imported ? ", as the candidate's machine reported them" : "");
  for (const Step& s : steps) {
    const Event& e = *s.event;
    const std::string from = provenance(e);
    const std::string mark = from.empty() ? "" : fmt::format("  [{}]", from);
    if (e.kind == Event::Kind::start) {
      fmt::print("{:>4}  session started{}\n", s.minute, mark);
    } else if (e.kind == Event::Kind::hint) {
      fmt::print("{:>4}  hint {}, {}{}\n", s.minute, e.hint, e.shown ? "shown" : "given aloud",
                 mark);
    } else if (!e.built) {
      fmt::print("{:>4}  version {}: did not build{}\n", s.minute, s.version, mark);
    } else {
      std::string first;
      for (const ScenarioLine& l : e.scenarios) {
        if (first.empty() && !l.violation.empty()) first = l.name + ": " + l.violation;
      }
      if (e.full_set) {
        fmt::print("{:>4}  version {}, seed {}: {}  ({}){}\n", s.minute, s.version, e.seed,
                   verdict::tier_name(e.verdict), tiers_of(e), mark);
      } else {  // a part of the set: its tiers, not a tier of the file
        fmt::print("{:>4}  version {}, {} only: {}{}\n", s.minute, s.version, set_of(e),
                   tiers_of(e), mark);
      }
      if (!first.empty()) fmt::print("        first violation: {}\n", one_line(first));
    }
  }
}

json::value export_json(const std::string& exercise, const Record& record) {
  json::array events;
  for (const Event& e : record.events) events.push_back(json::parse(to_json_line(e)));
  return json::object{
      {"schema", kExportSchema},      {"schema_version", kExportVersion},
      {"exercise", exercise},         {"session", record.folder.filename().string()},
      {"exported_at", now_seconds()}, {"events", std::move(events)}};
}

const char* kind_word(const Event& e) {
  return e.kind == Event::Kind::start ? "start" : e.kind == Event::Kind::hint ? "hint" : "grade";
}

// A candidate's export, read and checked: every event well formed, the first the session's
// start, times that never go back nor pass the export's time (or this machine's clock), each
// version's text present, within what the judge grades and of its fingerprint. Anything else is
// refused, naming the event.
std::vector<Event> read_export(const std::string& exercise, const fs::path& file) {
  const std::string name = file.string();
  const auto refuse = [&](const std::string& what) {
    return UsageError(fmt::format("{}: {}", one_line(name), what));
  };
  json::object exported;
  try {
    exported = json::parse(readable_text(file)).as_object();
    if (exported.at("schema").as_string() != kExportSchema) throw UsageError("");
  } catch (const std::exception&) {
    throw refuse("not a session exported by ./overlap session --export");
  }
  const json::value* version = exported.if_contains("schema_version");
  if (!version || !version->is_int64() ||
      (version->as_int64() != 1 && version->as_int64() != kExportVersion)) {
    throw refuse(
        fmt::format("a schema_version this kit does not read (it reads 1 and {})", kExportVersion));
  }
  const json::value* of = exported.if_contains("exercise");
  if (!of || !of->is_string()) throw refuse("the export names no exercise");
  if (of->as_string() != exercise) {
    throw refuse(
        fmt::format("a session of \"{}\", not of {}", one_line(of->as_string()), exercise));
  }
  const std::int64_t now = now_seconds();
  std::optional<std::int64_t> exported_at;
  if (version->as_int64() >= 2) {
    const json::value* at = exported.if_contains("exported_at");
    if (!at || !at->is_int64()) throw refuse("the export does not say when it was made");
    exported_at = at->as_int64();
    if (*exported_at > now + kClockSlack) {
      throw refuse("made, it says, more than a day ahead of this machine's clock");
    }
  }
  const json::value* listed = exported.if_contains("events");
  if (!listed || !listed->is_array() || listed->as_array().empty()) {
    throw refuse("the export holds no events");
  }
  std::vector<Event> events;
  for (const json::value& v : listed->as_array()) {
    const std::size_t n = events.size() + 1;
    Event e;
    try {
      e = from_json_text(json::serialize(v));
    } catch (const std::exception& error) {
      throw refuse(
          fmt::format("event {} is not a session's event ({})", n, one_line(error.what())));
    }
    const std::string what = fmt::format("event {} (a {} at {})", n, kind_word(e), e.time);
    if ((n == 1) != (e.kind == Event::Kind::start)) {
      throw refuse(n == 1 ? fmt::format("{} is not the session's start", what)
                          : fmt::format("{} starts the session a second time", what));
    }
    if (n > 1 && e.time < events.back().time) {
      throw refuse(fmt::format("{} is earlier than event {} (at {}): the record's times go back",
                               what, n - 1, events.back().time));
    }
    if (exported_at && e.time > *exported_at) {
      throw refuse(fmt::format("{} is after the export was made (at {})", what, *exported_at));
    }
    if (e.time > now + kClockSlack) {
      throw refuse(fmt::format("{} is more than a day ahead of this machine's clock", what));
    }
    if (e.kind == Event::Kind::hint && e.hint < 1) {
      throw refuse(fmt::format("{} gives hint {}, which is no hint's number", what, e.hint));
    }
    if (e.kind == Event::Kind::grade) {
      if (e.source.size() > kMaxSourceBytes) {
        throw refuse(fmt::format("{} holds a version of {} bytes, over the {} MiB the judge grades",
                                 what, e.source.size(), kMaxSourceBytes >> 20));
      }
      if (e.source.empty() && e.built) {
        throw refuse(fmt::format("{} is of a version whose text the record does not hold", what));
      }
      if (judge::sha256_hex(e.source) != e.sha256) {
        throw refuse(fmt::format("{} names a sha256 that is not its text's", what));
      }
    }
    // What it says of itself is a claim like the rest: the import marks what it keeps.
    e.reported = e.regraded = false;
    events.push_back(std::move(e));
  }
  return events;
}

// One version of the record: its text, its number, the record's grades of it, and where it
// appears (each run of grades of it, by the index of the run's first event).
struct Version {
  const std::string* text = nullptr;
  int number = 0;
  std::vector<const Event*> claims;
  std::vector<std::size_t> appearances;
  std::optional<Regrade> regrade;  // for the newest kRegradedVersions
};

// The record's tiers for a version, in words, and whether this kit's grade says otherwise. A
// grade of the default set is compared as a whole; a grade of a part, scenario by scenario (the
// scenarios this kit graded too) and as the worst of them.
std::pair<std::string, bool> compare(const Version& v, const Event& mine) {
  bool differs = false;
  const Event* full = nullptr;  // the last claim of the default set, or that it did not build
  for (const Event* claim : v.claims) {
    if (claim->full_set || !claim->built) full = claim;
    if (claim->built != mine.built) {
      differs = true;
      continue;
    }
    if (!claim->built) continue;
    if (claim->full_set) {
      differs = differs || claim->verdict != mine.verdict;
      continue;
    }
    bool all_there = true;
    std::optional<verdict::Tier> worst;
    for (const ScenarioLine& l : claim->scenarios) {
      const auto here = std::find_if(mine.scenarios.begin(), mine.scenarios.end(),
                                     [&](const ScenarioLine& m) { return m.name == l.name; });
      if (here == mine.scenarios.end()) {
        all_there = false;
        continue;
      }
      differs = differs || here->verdict != l.verdict;
      worst = worst ? std::min(*worst, here->verdict) : here->verdict;
    }
    if (all_there && worst) differs = differs || claim->verdict != *worst;
  }
  if (full) return {full->built ? verdict::tier_name(full->verdict) : "did not build", differs};
  // Only parts of the set: the last one's overall tier, then each scenario's last tier the record
  // gives, in order of first mention.
  std::vector<std::pair<std::string, verdict::Tier>> said;
  for (const Event* claim : v.claims) {
    for (const ScenarioLine& l : claim->scenarios) {
      const auto at =
          std::find_if(said.begin(), said.end(), [&](const auto& s) { return s.first == l.name; });
      if (at == said.end()) {
        said.emplace_back(l.name, l.verdict);
      } else {
        at->second = l.verdict;
      }
    }
  }
  std::vector<std::string> words;
  for (const auto& [name, tier] : said) {
    words.push_back(fmt::format("{} {}", one_line(name), verdict::tier_name(tier)));
  }
  return {fmt::format("{} ({}; parts of the set only)",
                      verdict::tier_name(v.claims.back()->verdict), fmt::join(words, ", ")),
          differs};
}

// The versions' grades on the default set, kJudgesAtOnce judges at a time, each in a folder of
// its own under `work`.
void regrade_all(const std::string& exercise, const std::string& judge_program,
                 const std::vector<Version*>& versions, const fs::path& work) {
  std::atomic<std::size_t> next{0};
  std::vector<std::exception_ptr> errors(versions.size());
  const auto worker = [&] {
    for (std::size_t i; (i = next++) < versions.size();) {
      try {
        versions[i]->regrade = grade_text(judge_program, exercise, *versions[i]->text,
                                          work / std::to_string(versions[i]->number), 0);
      } catch (...) {
        errors[i] = std::current_exception();
      }
    }
  };
  std::vector<std::thread> judges;
  for (unsigned j = 0; j < std::min<std::size_t>(kJudgesAtOnce, versions.size()); ++j) {
    judges.emplace_back(worker);
  }
  for (std::thread& t : judges) t.join();
  for (std::size_t i = 0; i < versions.size(); ++i) {
    if (errors[i]) std::rethrow_exception(errors[i]);
    const Regrade& r = *versions[i]->regrade;
    if (!r.event) {
      throw std::runtime_error(fmt::format(
          "the judge could not regrade version {} (exit {}): run ./overlap grade {} once to "
          "check the kit{}",
          versions[i]->number, r.exit, exercise,
          r.messages.empty() ? "" : "\n" + protocol::escape_control(r.messages)));
    }
  }
}

// A candidate's exported session, made this machine's: each distinct file of the record graded
// once on the default set here (the newest kRegradedVersions; older ones are kept as recorded,
// unverified), at the record's times; the record's hints and times kept, marked as reported.
// Nothing is written until every regrade is done.
int import_session(const std::string& exercise, const std::string& judge_program,
                   const fs::path& sessions, const fs::path& file) {
  const std::vector<Event> events = read_export(exercise, file);

  // The versions, numbered by first appearance; a run of grades of one text is one appearance.
  std::vector<Version> versions;
  std::unordered_map<std::string_view, std::size_t> index;  // text -> versions[]
  std::vector<std::size_t> order;                           // versions[] by last appearance
  const std::string* previous = nullptr;
  int grades = 0;
  for (std::size_t i = 0; i < events.size(); ++i) {
    const Event& e = events[i];
    if (e.kind != Event::Kind::grade) continue;
    ++grades;
    const auto [at, added] = index.emplace(e.source, versions.size());
    if (added) {
      versions.emplace_back();
      versions.back().text = &e.source;
      versions.back().number = static_cast<int>(versions.size());
    }
    Version& v = versions[at->second];
    v.claims.push_back(&e);
    if (!previous || *previous != e.source) {
      v.appearances.push_back(i);
      std::erase(order, at->second);
      order.push_back(at->second);
    }
    previous = &e.source;
  }
  std::vector<Version*> newest;
  for (std::size_t k = order.size(); k-- > 0 && newest.size() < kRegradedVersions;) {
    newest.push_back(&versions[order[k]]);
  }

  const fs::path work = fs::temp_directory_path() / fmt::format("overlap-import-{}", ::getpid());
  fs::remove_all(work);
  try {
    regrade_all(exercise, judge_program, newest, work);
  } catch (...) {
    fs::remove_all(work);
    throw;
  }
  fs::remove_all(work);

  // The session: the record's order and times, each appearance of a version once.
  const fs::path folder = start_session(sessions, events.front().time, true);
  std::unordered_map<std::size_t, const Version*> appearing;  // event index -> its version
  for (const Version& v : versions) {
    for (const std::size_t i : v.appearances) appearing[i] = &v;
  }
  for (std::size_t i = 1; i < events.size(); ++i) {
    Event e = events[i];
    if (e.kind == Event::Kind::hint) {
      e.reported = true;
      append(folder, e);
      continue;
    }
    const auto at = appearing.find(i);
    if (at == appearing.end()) continue;  // the same version again: shown once a run
    if (at->second->regrade) {
      Event mine = *at->second->regrade->event;
      mine.time = e.time;
      mine.regraded = true;
      append(folder, mine);
    } else {
      e.reported = true;
      append(folder, e);
    }
  }

  const std::int64_t start = events.front().time;
  int differ = 0, unverified = 0;
  for (const Version& v : versions) {
    const int minute = static_cast<int>(
        std::min<std::int64_t>((events[v.appearances.front()].time - start) / 60, kLastMinute));
    if (!v.regrade) {
      ++unverified;
      fmt::print(
          "minute {:>3}, version {}: the record says {}; not regraded (older than the "
          "newest {}): shown as recorded, unverified\n",
          minute, v.number, compare(v, *v.claims.back()).first, kRegradedVersions);
      continue;
    }
    const Event& mine = *v.regrade->event;
    const auto [said, differs] = compare(v, mine);
    if (differs) ++differ;
    fmt::print("minute {:>3}, version {}: the record says {}, this kit grades {}{}\n", minute,
               v.number, said,
               mine.built ? fmt::format("{} on the default set", verdict::tier_name(mine.verdict))
                          : std::string("did not build"),
               differs ? "  <- differs" : "");
  }
  fmt::print(
      "overlap: regraded the record's {} versions ({} grades) on the default set into session "
      "{}; {} differ from the record{}\n",
      versions.size() - unverified, grades, folder.filename().string(), differ,
      unverified ? fmt::format("; {} older versions shown as recorded, unverified", unverified)
                 : "");
  fmt::print(
      "overlap: the record's times and hints are as the candidate's machine reported them: shown, "
      "never scored (record the hints you gave with --hint N)\n");
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
