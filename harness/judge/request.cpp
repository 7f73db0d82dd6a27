#include "request.hpp"

#include <fcntl.h>
#include <fmt/format.h>
#include <unistd.h>

#include <boost/program_options.hpp>
#include <cerrno>
#include <cstring>
#include <filesystem>
#include <iostream>

#include "../sandbox/empty_root.hpp"
#include "build.hpp"
#include "options.hpp"

namespace overlap::judge {

namespace po = boost::program_options;

namespace {

constexpr double kMaxTimeLimit = 3600;  // --time-limit, seconds

// The options that name a report file, each written once grading is over.
constexpr const char* kReportOptions[] = {"json", "trace", "html"};

// Why `path` could not be written, or "" when it can: an existing file is opened for appending
// (so it is left as it was), for a new one its folder must take it (so no file is left behind).
std::string unwritable(const std::string& path) {
  if (const int fd = ::open(path.c_str(), O_WRONLY | O_APPEND | O_CLOEXEC); fd >= 0) {
    ::close(fd);
    return "";
  }
  if (errno != ENOENT) return std::strerror(errno);
  std::filesystem::path folder = std::filesystem::path(path).parent_path();
  if (folder.empty()) folder = ".";
  if (::access(folder.c_str(), W_OK | X_OK) != 0) return std::strerror(errno);
  return "";
}

// Before anything is built or graded: every report file can be written, and no two are one (nor
// the graded file).
void check_report_files(const po::variables_map& args, const std::string& source) {
  const auto canonical = [](const std::string& file) {
    std::error_code error;
    std::filesystem::path path =
        std::filesystem::weakly_canonical(std::filesystem::absolute(file), error);
    return error ? std::filesystem::absolute(file).lexically_normal() : path;
  };
  std::vector<std::pair<const char*, std::filesystem::path>> seen;
  if (!source.empty()) {  // a report must not overwrite the graded file
    seen.emplace_back(args.count("solution") ? "solution" : "submission", canonical(source));
  }
  for (const char* option : kReportOptions) {
    if (!args.count(option)) continue;
    const std::string file = args[option].as<std::string>();
    const std::filesystem::path path = canonical(file);
    for (const auto& [other, other_path] : seen) {
      if (path == other_path) {
        throw Stop{kUsage, fmt::format("--{} and --{} name the same file, {}: give each its own",
                                       other, option, file)};
      }
    }
    seen.emplace_back(option, path);
  }
  for (const char* option : kReportOptions) {
    if (!args.count(option)) continue;
    const std::string file = args[option].as<std::string>();
    if (const std::string why = unwritable(file); !why.empty()) {
      throw Stop{kUsage, fmt::format("cannot write --{} {}: {}", option, file, why)};
    }
  }
}

// The family of the compiler this judge builds with: each has its own judge and build folder.
std::string own_compiler() { return builds_with_clang() ? "clang" : "gcc"; }

void check_compiler(const po::variables_map& args) {
  if (!args.count("compiler")) return;
  if (const std::string compiler = args["compiler"].as<std::string>(); compiler != own_compiler()) {
    throw Stop{kUsage, fmt::format("this judge builds with {}; --compiler {} is the judge in {} "
                                   "(./overlap grade builds it)",
                                   OVERLAP_COMPILER, compiler,
                                   compiler == "gcc" ? "build-gcc/" : "build/")};
  }
}

// What to grade: exactly one of --solution, --submission and --program.
void choose_what_to_grade(Request& request) {
  const po::variables_map& args = request.args;
  if (args.count("solution") + args.count("submission") + args.count("program") != 1) {
    throw Stop{kUsage,
               "say what to grade: --solution (the kit's), --submission FILE (a train.cpp) or "
               "--program FILE (a submission already built: its shared object)"};
  }
  if (args.count("saved") && args.count("program")) {
    throw Stop{kUsage, "--saved is a copy of --submission: give both"};
  }
  if (args.count("solution")) {
    const std::string relative = "solutions/" + request.exercise->name() + "/train.cpp";
    request.source = OVERLAP_SOURCE_DIR "/" + relative;
    request.shown = relative;
  } else if (args.count("submission")) {
    request.source = request.shown = args["submission"].as<std::string>();
  } else {
    request.program = request.shown = args["program"].as<std::string>();
  }
  if (args.count("submission-name")) request.shown = args["submission-name"].as<std::string>();
}

SelectionRequest scenarios_asked(const po::variables_map& args) {
  if (args.count("replay") &&
      (args.count("scenario") || args.count("seed") || !args["generated"].defaulted())) {
    throw Stop{kUsage,
               "--replay grades the scenarios of its report: give no --scenario, --seed or "
               "--generated with it"};
  }
  SelectionRequest asked;
  if (args.count("scenario")) asked.scenario = args["scenario"].as<std::string>();
  if (args.count("seed")) asked.seed = args["seed"].as<std::uint64_t>();
  asked.generated = args["generated"].as<int>();
  if (args.count("replay")) asked.replay = args["replay"].as<std::string>();
  return asked;
}

// A grade needs the namespaces, or says plainly that it went without. A person debugging their
// own file under gdb runs it without them (the build keeps them).
void check_namespaces() {
  std::string why;
  try {
    why = sandbox::namespaces_unavailable();
  } catch (const std::exception& e) {
    throw Stop{kGraderError, fmt::format("grader error: cannot try the sandbox: {}", e.what())};
  }
  if (!why.empty()) {
    throw Stop{kGraderError, fmt::format("grader error: the sandbox cannot be made here: {}", why)};
  }
}

void print_help(const worlds::Exercise& exercise) {
  fmt::print(
      "usage: ./overlap grade {0} [grade options]\n  (the judge: overlap-judge-{0} {0} "
      "--submission FILE [options])\n",
      exercise.name());
  std::cout << judge_options();
  fmt::print("scenarios: {}\n", valid_scenarios(exercise));
}

}  // namespace

Request parse(int argc, char** argv) {
  Request request;
  try {
    request.args = parse_options(argc, argv);
  } catch (const OptionError& e) {
    throw Stop{kUsage, e.what()};
  }
  const po::variables_map& args = request.args;
  if (args.count("exercise")) {
    request.exercise = worlds::exercise_named(args["exercise"].as<std::string>());
  }
  if (!request.exercise) {
    throw Stop{kUsage, fmt::format("usage: overlap-judge EXERCISE --submission FILE [options]; "
                                   "valid exercises: {}",
                                   fmt::join(worlds::exercise_names(), ", "))};
  }
  if (args.count("help")) {
    print_help(*request.exercise);
    throw Stop{0, ""};
  }
  check_compiler(args);
  choose_what_to_grade(request);
  request.scenarios = scenarios_asked(args);
  try {
    request.selection = select_scenarios(*request.exercise, request.scenarios);
  } catch (const UsageError& e) {
    throw Stop{kUsage, e.what()};
  } catch (const std::exception& e) {
    throw Stop{kGraderError, fmt::format("grader error: cannot draw the scenarios: {}", e.what())};
  }
  // Real seconds: an hour is far past any honest run, and the launcher's CPU limit is set from it.
  request.time_limit = args["time-limit"].as<double>();
  if (!(request.time_limit > 0 && request.time_limit <= kMaxTimeLimit)) {
    throw Stop{kUsage, fmt::format("--time-limit must be in (0, {:g}] seconds", kMaxTimeLimit)};
  }
  check_report_files(args, request.source);
  request.namespaces = !args.count("no-sandbox");
  // g++ hands the assembler text, and the assembler reads what that text names: only the empty
  // root keeps what it can read to the build's own folders.
  if (!request.namespaces && !request.source.empty() && own_compiler() == "gcc") {
    throw Stop{kUsage,
               "--compiler gcc builds only in the sandbox's namespaces (the assembler it hands its "
               "text to could read any file of this user's without them): grade with clang, the "
               "default, or without --no-sandbox"};
  }
  if (request.namespaces) check_namespaces();
  return request;
}

}  // namespace overlap::judge
