// Building a submission from any source file, as the judge does for --submission: in a
// scratch folder of its own (so two grades at once never collide), with the compile and link
// CMake recorded at configure time (submission_build.txt), under a real-time limit and limits of
// CPU, memory and output size. Each step runs in an empty root (sandbox/empty_root.hpp) that
// holds /usr, the kit's public headers, the client's entry, the precompiled header and a copy of
// the submission at its own path. Before a result or a message of the compiler's is used, every
// file the compile read and every string it hands the assembler is checked (admission.hpp).
#pragma once

#include <string>
#include <variant>

namespace overlap::judge {

struct Built {
  std::string program;  // the submission's shared object, in `scratch`, for the launcher
};

struct BuildFailure {
  std::string message;  // the compiler's messages, or what was refused and why
};

// Whether this judge builds with clang++ (admitted by the compiler's own parse), else g++
// (admitted by the assembly text it writes, and only in the namespaces).
bool builds_with_clang();

// The program that confines the process and loads a submission of `exercise`
// (sandbox/launcher_main.cpp). Throws std::runtime_error when the recipe has none (a grader
// error).
std::string launcher_of(const std::string& exercise);

// Builds `text`, the bytes of `source` as the grade read them, for `exercise` in `scratch` (an
// existing, empty folder), in the empty root unless `namespaces` is false (--no-sandbox); the
// compiler sees them at `source`'s path. Throws std::runtime_error when the kit itself cannot
// build (a missing recipe: a grader error).
std::variant<Built, BuildFailure> build_submission(const std::string& exercise,
                                                   const std::string& source,
                                                   const std::string& text,
                                                   const std::string& scratch, double real_seconds,
                                                   bool namespaces);

}  // namespace overlap::judge
