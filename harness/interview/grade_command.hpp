// A grade of a version of the candidate's file: the judge run as a user runs it, and the grade
// recorded (the `grade` command, and an import's regrades).
#pragma once

#include <cstdint>
#include <filesystem>
#include <optional>
#include <string>
#include <vector>

namespace overlap::interview {

// Runs the judge on a version of the candidate's file and records the grade in `session` (when
// there is one) at `time`: a grade it reported (exit 0 or 1) with its tiers, or one that did not
// build (exit 3) with the compiler's messages; a usage or grader error records nothing. The
// judge's output is passed through when `pass_through`. Returns the judge's exit code.
int grade_into(const std::optional<std::filesystem::path>& session,
               const std::string& judge_program, const std::string& exercise,
               const std::vector<std::string>& judge_args, std::int64_t time, bool pass_through);

}  // namespace overlap::interview
