// An interview's record: every grade of the candidate's exercises/<exercise>/train.cpp (the time,
// the text graded, each scenario's tier and first violation, the seed) and every hint given, in
// the order they happened. One folder per exercise holds its sessions, one folder each, and a
// file `current` that names the one grades go to; a session's events are lines of JSON in its
// `events.jsonl`, appended with one write each so that a grade and a `watch` never interleave.
// A session imported from a candidate's export holds what their machine reported (its times, its
// hints, the grades not regraded here), marked as such, beside this kit's grades of its files.
#pragma once

#include <boost/json/object.hpp>
#include <cstdint>
#include <filesystem>
#include <string>
#include <string_view>
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
  // Whether it graded the default set (the named scenarios and the public seed's default
  // generated ones, as a plain `overlap grade`): only such a grade gives the file its tier.
  bool full_set = false;
  // A hint.
  int hint = 0;
  bool shown = false;  // shown by ./overlap hint (practising alone), not given aloud
  // Of an imported record. `reported`: as the candidate's machine recorded it (its start, its
  // hints, a grade not regraded here), shown and never scored. `regraded`: this kit's grade of
  // the record's file on the default set, at the time the record gives (that time is reported).
  bool reported = false;
  bool regraded = false;
};

// What the outcome may read: an event this machine recorded or graded itself, not a claim of a
// candidate's machine; and whether its time is this machine's too.
bool trusted(const Event& event);
bool time_trusted(const Event& event);

// The folder of the session grades go to now, under an exercise's sessions folder: made, and
// named in `current`, when there is none yet, starting at `start_if_none` (the command's start).
std::filesystem::path current_session(const std::filesystem::path& sessions);
std::filesystem::path current_session(const std::filesystem::path& sessions,
                                      std::int64_t start_if_none);

// A new session, named by its start, made current; the old ones stay. Records its start (as the
// candidate's machine reported it, for an import).
std::filesystem::path start_session(const std::filesystem::path& sessions, std::int64_t now,
                                    bool reported = false);

void append(const std::filesystem::path& session, const Event& event);
std::vector<Event> read_events(const std::filesystem::path& session);

// An event as a JSON object and back (the export file holds a list of them).
std::string to_json_line(const Event& event);
Event from_json_text(const std::string& text);

// A grade's event from the judge's JSON report (times and text as given). Throws
// std::runtime_error when the report is not one of the judge's.
// `full_set`: the grade's options asked for the default set.
Event grade_event(const boost::json::object& report, const std::string& source, std::int64_t time,
                  const std::string& scenario_option, int generated, const std::string& printed,
                  bool full_set = false);
Event build_failure_event(const std::string& source, std::int64_t time, std::uint64_t seed,
                          const std::string& scenario_option, int generated,
                          const std::string& messages, bool full_set = false);

std::int64_t now_seconds();

// A record's text made safe to show on one line of a terminal or page: control characters (a
// newline too) as \xNN.
std::string one_line(std::string_view text);

// A grade not of the default set, in words: the options that made its set ("--scenario
// two-stage").
std::string set_of(const Event& grade);

// Where an event of an imported session came from, in words ("" for one of this machine's).
std::string provenance(const Event& event);

// The events as the progression shows them: the minute of each from the session's start (at
// most kLastMinute), and for a grade the version of the file it graded: versions are distinct
// texts, numbered in the order they were first graded (a text graded again keeps its number).
inline constexpr int kLastMinute = 1'000'000;
struct Step {
  int minute = 0;
  const Event* event = nullptr;
  int version = 0;           // grades only
  bool new_version = false;  // the first grade of this text
};
std::vector<Step> steps_of(const std::vector<Event>& events);

}  // namespace overlap::interview
