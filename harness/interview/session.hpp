// An interview's record: every grade of the candidate's exercises/<exercise>/train.cpp (the time,
// the text graded, each scenario's tier and first violation, the seed) and every hint given, in
// the order they happened. One folder per exercise holds its sessions, one folder each, and a
// file `current` that names the one grades go to; a session's events are lines of JSON in its
// `events.jsonl`, appended with one write each so that a grade and a `watch` never interleave.
#pragma once

#include <boost/json/object.hpp>
#include <cstdint>
#include <filesystem>
#include <string>
#include <vector>

#include "../verdict/result.hpp"

namespace overlap::interview {

struct ScenarioLine {
  std::string name;
  verdict::Tier verdict = verdict::Tier::fail;
  double speedup = 0;
  std::string violation;  // the first, as "kind at T ms: message", or ""
};

struct Event {
  enum class Kind { start, grade, hint } kind = Kind::start;
  std::int64_t time = 0;  // seconds since the epoch, where the event happened
  // A grade.
  std::string source;  // the text graded
  std::string sha256;  // of `source`
  bool built = false;  // false: the file did not build (`report` holds the compiler's words)
  std::uint64_t seed = 0;
  std::string scenario;  // the grade's --scenario, or "" for the default set
  int generated = 0;     // the grade's --generated
  verdict::Tier verdict = verdict::Tier::fail;
  std::vector<ScenarioLine> scenarios;
  std::string report;  // the terminal report as printed
  // A hint.
  int hint = 0;
  bool shown = false;  // shown by ./overlap hint (practising alone), not given aloud
};

// The folder of the session grades go to now, under an exercise's sessions folder: made, and
// named in `current`, when there is none yet.
std::filesystem::path current_session(const std::filesystem::path& sessions);

// A new session, named by its start, made current; the old ones stay. Records its start.
std::filesystem::path start_session(const std::filesystem::path& sessions, std::int64_t now);

void append(const std::filesystem::path& session, const Event& event);
std::vector<Event> read_events(const std::filesystem::path& session);

// An event as a JSON object and back (the export file holds a list of them).
std::string to_json_line(const Event& event);
Event from_json_text(const std::string& text);

// A grade's event from the judge's JSON report (times and text as given). Throws
// std::runtime_error when the report is not one of the judge's.
Event grade_event(const boost::json::object& report, const std::string& source, std::int64_t time,
                  const std::string& scenario_option, int generated, const std::string& printed);
Event build_failure_event(const std::string& source, std::int64_t time, std::uint64_t seed,
                          const std::string& scenario_option, int generated,
                          const std::string& messages);

std::int64_t now_seconds();

// The events as the progression shows them: the minute of each from the session's start, and
// for a grade the version of the file it graded (1 for the first text, one more whenever the
// text differs from the previous grade's).
struct Step {
  int minute = 0;
  const Event* event = nullptr;
  int version = 0;           // grades only
  bool new_version = false;  // the first grade of this text
};
std::vector<Step> steps_of(const std::vector<Event>& events);

}  // namespace overlap::interview
