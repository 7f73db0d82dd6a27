// The judge as a user runs it: its program with the grade's options, its output passed through
// (or not, for a regrade), and what the record keeps of it: the exit code, what it printed, and
// its JSON report. The interview learns a grade from these alone, never from the judge's inside.
#pragma once

#include <boost/json/object.hpp>
#include <optional>
#include <string>
#include <vector>

namespace overlap::interview {

struct JudgeRun {
  int exit = 0;                               // the judge's exit code (128 + N for signal N)
  std::string printed;                        // its standard output: the report as printed
  std::string messages;                       // its standard error
  std::optional<boost::json::object> report;  // its JSON report, when it wrote one
};

// Runs `program` with `args`, its output kept (and passed through, with `pass_through`): the
// judge, or the interview's own commands. `report` stays empty.
JudgeRun run_program(const std::string& program, std::vector<std::string> args, bool pass_through);

// Runs `judge` with `args` (the exercise first). `report` is the JSON report `args` name, or ""
// for none: then `--json` to a file of this run's own is added. With `pass_through`, the judge's
// output reaches this program's as it comes.
JudgeRun run_judge(const std::string& judge, std::vector<std::string> args,
                   const std::string& report, bool pass_through);

}  // namespace overlap::interview
