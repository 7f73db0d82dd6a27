// Building a submission from any source file, as the judge does for --submission: in a
// scratch folder of its own (so two grades at once never collide), with the compile and link
// CMake recorded at configure time (submission_build.txt), under a real-time limit. Before it
// links, every file the compile read is checked: a submission may include the kit's public
// headers, the C++ standard library and Boost, nothing else.
#pragma once

#include <string>
#include <variant>

namespace overlap::grade {

struct Built {
  std::string program;  // the submission's shared object, in `scratch`, for the launcher
};

struct BuildFailure {
  std::string message;  // the compiler's messages, or what was refused and why
};

// The program that confines the process and loads a submission of `exercise`
// (sandbox/launcher_main.cpp). Throws std::runtime_error when the recipe has none (a grader
// error).
std::string launcher_of(const std::string& exercise);

// Builds `source` for `exercise` in `scratch` (an existing, empty folder). Throws
// std::runtime_error when the kit itself cannot build (a missing recipe: a grader error).
std::variant<Built, BuildFailure> build_submission(const std::string& exercise,
                                                   const std::string& source,
                                                   const std::string& scratch, double real_seconds);

}  // namespace overlap::grade
