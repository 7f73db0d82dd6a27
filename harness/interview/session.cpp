#include "session.hpp"

#include <fcntl.h>
#include <fmt/format.h>
#include <unistd.h>

#include <boost/describe/enum_from_string.hpp>
#include <boost/json.hpp>
#include <cerrno>
#include <chrono>
#include <cstring>
#include <ctime>
#include <fstream>
#include <sstream>
#include <stdexcept>
#include <string_view>
#include <unordered_map>

#include "../judge/files.hpp"
#include "../judge/sha256.hpp"
#include "../protocol/text.hpp"
#include "../verdict/verdict.hpp"
#include "../worlds/common/generated.hpp"

namespace overlap::interview {

namespace fs = std::filesystem;
namespace json = boost::json;

namespace {

constexpr const char* kEvents = "events.jsonl";
constexpr const char* kCurrent = "current";

std::string read_text(const fs::path& path) { return judge::file_bytes(path).value_or(""); }

const char* kind_name(Event::Kind k) {
  switch (k) {
    case Event::Kind::start:
      return "start";
    case Event::Kind::grade:
      return "grade";
    case Event::Kind::hint:
      return "hint";
  }
  return "?";
}

verdict::Tier tier_named(std::string_view name) {
  verdict::Tier t{};
  if (!boost::describe::enum_from_string(std::string(name).c_str(), t)) {
    throw std::runtime_error("a session event names no tier: " + std::string(name));
  }
  return t;
}

// A session's folder name: its start, in UTC, sortable.
std::string stamp(std::int64_t time) {
  const std::time_t t = time;
  std::tm tm{};
  ::gmtime_r(&t, &tm);
  char buffer[32];
  std::strftime(buffer, sizeof buffer, "%Y%m%d-%H%M%S", &tm);
  return buffer;
}

}  // namespace

std::string one_line(std::string_view text) {
  std::string out;
  for (const char c : protocol::escape_control(text)) {
    if (c == '\n' || c == '\t') {
      out += c == '\n' ? "\\x0a" : "\\x09";
    } else {
      out += c;
    }
  }
  return out;
}

std::string set_of(const Event& e) {
  std::vector<std::string> options;
  if (!e.scenario.empty()) options.push_back("--scenario " + one_line(e.scenario));
  if (e.seed != worlds::kPublicSeed) options.push_back(fmt::format("--seed {}", e.seed));
  if (e.generated != worlds::kDefaultGenerated) {
    options.push_back(fmt::format("--generated {}", e.generated));
  }
  if (options.empty()) return "options of its own";  // --replay, --time-limit
  return fmt::format("{}", fmt::join(options, " "));
}

std::string provenance(const Event& e) {
  if (e.regraded) return "regraded here on the default set; its minute is the record's";
  if (!e.reported) return "";
  if (e.kind == Event::Kind::grade) {
    return "as the candidate's machine recorded it, unverified: not regraded, not scored";
  }
  return "reported by the candidate's machine, not scored";
}

bool trusted(const Event& e) { return !e.reported; }
bool time_trusted(const Event& e) { return !e.reported && !e.regraded; }

std::int64_t now_seconds() {
  return std::chrono::duration_cast<std::chrono::seconds>(
             std::chrono::system_clock::now().time_since_epoch())
      .count();
}

fs::path start_session(const fs::path& sessions, std::int64_t now, bool reported) {
  fs::create_directories(sessions);
  std::string name = stamp(now);
  for (int n = 2; fs::exists(sessions / name); ++n) name = fmt::format("{}-{}", stamp(now), n);
  fs::create_directory(sessions / name);
  const fs::path next = sessions / (std::string(kCurrent) + ".next");
  std::ofstream(next) << name << '\n';
  fs::rename(next, sessions / kCurrent);  // atomic: a grade sees the old session or the new one
  Event start;
  start.kind = Event::Kind::start;
  start.time = now;
  start.reported = reported;
  append(sessions / name, start);
  return sessions / name;
}

fs::path current_session(const fs::path& sessions) {
  return current_session(sessions, now_seconds());
}

fs::path current_session(const fs::path& sessions, std::int64_t start_if_none) {
  std::string name = read_text(sessions / kCurrent);
  while (!name.empty() && (name.back() == '\n' || name.back() == '\r')) name.pop_back();
  if (!name.empty() && name.find('/') == std::string::npos && fs::is_directory(sessions / name)) {
    return sessions / name;
  }
  return start_session(sessions, start_if_none);
}

std::string to_json_line(const Event& e) {
  json::object o;
  o["event"] = kind_name(e.kind);
  o["time"] = e.time;
  if (e.kind == Event::Kind::grade) {
    o["source"] = e.source;
    o["sha256"] = e.sha256;
    o["built"] = e.built;
    o["seed"] = e.seed;
    o["scenario"] = e.scenario;
    o["generated"] = e.generated;
    o["verdict"] = verdict::tier_name(e.verdict);
    json::array scenarios;
    for (const ScenarioLine& s : e.scenarios) {
      scenarios.push_back(json::object{{"name", s.name},
                                       {"verdict", verdict::tier_name(s.verdict)},
                                       {"speedup", s.speedup},
                                       {"violation", s.violation}});
    }
    o["scenarios"] = std::move(scenarios);
    o["report"] = e.report;
    o["full_set"] = e.full_set;
  } else if (e.kind == Event::Kind::hint) {
    o["hint"] = e.hint;
    o["shown"] = e.shown;
  }
  // Only an imported session has them: a session of this machine's reads as before.
  if (e.reported) o["reported"] = true;
  if (e.regraded) o["regraded"] = true;
  return json::serialize(o);
}

Event from_json_text(const std::string& text) {
  const json::object o = json::parse(text).as_object();
  Event e;
  const std::string_view kind = o.at("event").as_string();
  e.time = o.at("time").to_number<std::int64_t>();
  if (kind == "start") {
    e.kind = Event::Kind::start;
  } else if (kind == "hint") {
    e.kind = Event::Kind::hint;
    e.hint = static_cast<int>(o.at("hint").to_number<std::int64_t>());
    e.shown = o.at("shown").as_bool();
  } else if (kind == "grade") {
    e.kind = Event::Kind::grade;
    e.source = o.at("source").as_string();
    e.sha256 = o.at("sha256").as_string();
    e.built = o.at("built").as_bool();
    e.seed = o.at("seed").to_number<std::uint64_t>();
    e.scenario = o.at("scenario").as_string();
    e.generated = static_cast<int>(o.at("generated").to_number<std::int64_t>());
    e.verdict = tier_named(o.at("verdict").as_string());
    for (const json::value& v : o.at("scenarios").as_array()) {
      const json::object& s = v.as_object();
      e.scenarios.push_back(
          {std::string(s.at("name").as_string()), tier_named(s.at("verdict").as_string()),
           s.at("speedup").to_number<double>(), std::string(s.at("violation").as_string())});
    }
    e.report = o.at("report").as_string();
    // A record from before the field: the options it keeps say whether the set was the default.
    e.full_set = o.contains("full_set") ? o.at("full_set").as_bool()
                                        : e.scenario.empty() && e.seed == worlds::kPublicSeed &&
                                              e.generated == worlds::kDefaultGenerated;
  } else {
    throw std::runtime_error("a session event of no known kind: " + std::string(kind));
  }
  if (const json::value* v = o.if_contains("reported")) e.reported = v->as_bool();
  if (const json::value* v = o.if_contains("regraded")) e.regraded = v->as_bool();
  return e;
}

void append(const fs::path& session, const Event& event) {
  const std::string line = to_json_line(event) + '\n';
  const fs::path file = session / kEvents;
  const int fd = ::open(file.c_str(), O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0644);
  if (fd < 0)
    throw std::runtime_error(
        fmt::format("cannot write {}: {}", file.string(), std::strerror(errno)));
  const ssize_t written = ::write(fd, line.data(), line.size());
  ::close(fd);
  if (written != static_cast<ssize_t>(line.size())) {
    throw std::runtime_error("cannot write " + file.string());
  }
}

std::vector<Event> read_events(const fs::path& session) {
  std::vector<Event> out;
  std::istringstream in(read_text(session / kEvents));
  for (std::string line; std::getline(in, line);) {
    if (!line.empty()) out.push_back(from_json_text(line));
  }
  return out;
}

namespace {

// A grade of `source`, built or not: what both kinds of grade record alike.
Event graded(const std::string& source, std::int64_t time, bool built, std::uint64_t seed,
             const std::string& scenario_option, int generated, bool full_set) {
  Event e;
  e.kind = Event::Kind::grade;
  e.time = time;
  e.source = source;
  e.sha256 = judge::sha256_hex(source);
  e.built = built;
  e.seed = seed;
  e.scenario = scenario_option;
  e.generated = generated;
  e.full_set = full_set;
  return e;
}

}  // namespace

Event grade_event(const json::object& report, const std::string& source, std::int64_t time,
                  const std::string& scenario_option, int generated, const std::string& printed,
                  bool full_set) {
  Event e;
  try {
    e = graded(source, time, true, report.at("seed").to_number<std::uint64_t>(), scenario_option,
               generated, full_set);
    e.verdict = tier_named(report.at("verdict").as_string());
    for (const json::value& v : report.at("scenarios").as_array()) {
      const json::object& r = v.as_object();
      std::string violation;
      if (const json::array& found = r.at("violations").as_array(); !found.empty()) {
        const json::object& first = found.front().as_object();
        violation = fmt::format("{} at {:g} ms: {}", std::string_view(first.at("kind").as_string()),
                                first.at("at_ms").to_number<double>(),
                                std::string_view(first.at("message").as_string()));
      }
      e.scenarios.push_back({std::string(r.at("name").as_string()),
                             tier_named(r.at("verdict").as_string()),
                             r.at("speedup").to_number<double>(), violation});
    }
  } catch (const std::exception& error) {
    throw std::runtime_error(std::string("the judge's report is not as recorded: ") + error.what());
  }
  e.report = printed;
  return e;
}

Event build_failure_event(const std::string& source, std::int64_t time, std::uint64_t seed,
                          const std::string& scenario_option, int generated,
                          const std::string& messages, bool full_set) {
  Event e = graded(source, time, false, seed, scenario_option, generated, full_set);
  e.report = messages;
  return e;
}

std::vector<Step> steps_of(const std::vector<Event>& events) {
  std::vector<Step> out;
  if (events.empty()) return out;
  const std::int64_t start = events.front().time;
  std::unordered_map<std::string_view, int> versions;  // text -> its number
  for (const Event& e : events) {
    // Clamped: a time far off (a record's, or a clock's) must not overflow a minute.
    const std::int64_t seconds = e.time >= start ? e.time - start : 0;
    Step step{static_cast<int>(std::min<std::int64_t>(seconds / 60, kLastMinute)), &e};
    if (e.kind == Event::Kind::grade) {
      const auto [at, added] = versions.emplace(e.source, static_cast<int>(versions.size()) + 1);
      step.new_version = added;
      step.version = at->second;
    }
    out.push_back(step);
  }
  return out;
}

}  // namespace overlap::interview
