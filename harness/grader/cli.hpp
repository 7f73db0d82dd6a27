// The grading program's main: options, one isolated run per scenario, reports, exit code.
//   exit 0  every scenario pass or optimal
//   exit 1  some scenario fail or slow
//   exit 2  usage error (unknown option or scenario)
#pragma once

#include "exercise.hpp"

namespace overlap::grade {

int main(int argc, char** argv, const Exercise& exercise, const char* submission);

}  // namespace overlap::grade
