// A grade of a version of the candidate's file: the judge run as a user runs it, and the grade
// recorded (the `grade` command, and an import's regrades).
#pragma once

#include <cstdint>
#include <filesystem>
#include <optional>
#include <string>
#include <vector>

#include "session.hpp"

namespace overlap::interview {

// A file over this is refused by the judge unread, and recorded without its text.
inline constexpr std::uintmax_t kMaxSourceBytes = 16 << 20;

// Runs the judge on a version of the candidate's file and records the grade in `session` (when
// there is one) at `time`: a grade it reported (exit 0 or 1) with its tiers, or one that did not
// build (exit 3) with the compiler's messages; a usage or grader error records nothing. The
// judge's output is passed through when `pass_through`. Returns the judge's exit code.
int grade_into(const std::optional<std::filesystem::path>& session,
               const std::string& judge_program, const std::string& exercise,
               const std::vector<std::string>& judge_args, std::int64_t time, bool pass_through);

// `source` graded on the default set as a plain `overlap grade` of it (its file written in
// `work`), recorded nowhere: the judge's exit code and messages, and the event to record at
// `time` (none for a usage or grader error). Safe to run from several threads at once, each
// with its own `work`.
struct Regrade {
  int exit = 0;
  std::optional<Event> event;
  std::string messages;
};
// `extra` adds report options (--html FILE) that change no grade.
Regrade grade_text(const std::string& judge_program, const std::string& exercise,
                   const std::string& source, const std::filesystem::path& work, std::int64_t time,
                   const std::vector<std::string>& extra = {});

}  // namespace overlap::interview
