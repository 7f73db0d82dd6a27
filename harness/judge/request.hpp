// What a grade is asked for, checked before anything is built or graded: the command line
// parsed against the options table (options.hpp), what to grade, its scenarios drawn, its limits,
// its report files writable, the sandbox at hand. A grade stopped early says why with its exit
// code (grade.hpp lists them).
#pragma once

#include <boost/program_options/variables_map.hpp>
#include <memory>
#include <string>

#include "../worlds/common/exercise.hpp"
#include "selection.hpp"

namespace overlap::judge {

inline constexpr int kUsage = 2;
inline constexpr int kBuildFailed = 3;
inline constexpr int kGraderError = 4;

// A grade stopped before its end: its exit code, and why (nothing more for --help).
struct Stop {
  int code;
  std::string message;  // said as "overlap: <message>"
};

// What a grade was asked for, checked: the command line parsed, its scenarios drawn.
struct Request {
  boost::program_options::variables_map args;
  std::unique_ptr<const worlds::Exercise> exercise;
  SelectionRequest scenarios;
  Selection selection;
  double time_limit = 0;
  bool namespaces = true;
  std::string source;   // the train.cpp to build, or "" with --program
  std::string program;  // with --program, the submission already built
  std::string shown;    // the graded file, as the report names it
};

// The command line, checked; throws Stop (with --help, after printing it, code 0).
Request parse(int argc, char** argv);

}  // namespace overlap::judge
