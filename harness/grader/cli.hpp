// The grading program's main: options, one isolated run per scenario, reports, exit code.
//   exit 0  every scenario pass or optimal
//   exit 1  some scenario fail or slow
//   exit 2  usage error (unknown option or scenario)
#pragma once

#include <string>

#include "../worlds/common/exercise.hpp"

namespace overlap::grade {

struct Submission {
  std::string file;      // as the report names it: "exercises/pipeline/train.cpp"
  std::string compiler;  // what built it: "clang++ 14.0.6 -O0 -gline-tables-only"
};

int main(int argc, char** argv, const worlds::Exercise& exercise, const Submission& submission);

}  // namespace overlap::grade
