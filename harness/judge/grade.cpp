#include "grade.hpp"

#include <fcntl.h>
#include <fmt/format.h>
#include <signal.h>
#include <unistd.h>

#include <boost/json/serialize.hpp>
#include <boost/program_options.hpp>
#include <cerrno>
#include <chrono>
#include <cstdio>
#include <cstring>
#include <ctime>
#include <filesystem>
#include <fstream>
#include <functional>
#include <iostream>
#include <optional>
#include <sstream>

#include "../verdict/verdict.hpp"
#include "../protocol/text.hpp"
#include "../report/html_report.hpp"
#include "../report/report_json.hpp"
#include "../report/text_report.hpp"
#include "../report/trace.hpp"
#include "../sandbox/empty_root.hpp"
#include "../worlds/common/exercise.hpp"
#include "build.hpp"
#include "files.hpp"
#include "options.hpp"
#include "program.hpp"
#include "sandbox_host.hpp"
#include "scratch.hpp"
#include "selection.hpp"
#include "sha256.hpp"

namespace overlap::judge {

namespace po = boost::program_options;

namespace {

constexpr int kUsage = 2;
constexpr int kBuildFailed = 3;
constexpr int kGraderError = 4;
constexpr double kBuildSeconds = 120;   // the compile and link of one submission
constexpr double kMaxTimeLimit = 3600;  // --time-limit, seconds
constexpr std::uintmax_t kMaxSourceBytes = 16 << 20;

// A grade stopped before its end: its exit code, and why (nothing more for --help).
struct Stop {
  int code;
  std::string message;  // said as "overlap: <message>"
};

// The compiler's messages as the candidate needs them: without the lines that point into the
// kit's own main, which includes the submission.
std::string compiler_messages(const std::string& log) {
  std::istringstream in(log);
  std::string out, line;
  while (std::getline(in, line)) {
    if (line.starts_with("In file included from ") &&
        line.find("client/submission_entry.cpp:") != std::string::npos) {
      continue;
    }
    out += line + '\n';
  }
  return out;
}

// How the best known is reached is for the interviewer: the candidate's reports give figures.
void keep_figures_only(Report& report) {
  for (ScenarioResult& r : report.scenarios) r.best_known_note.clear();
}

// For a candidate who is optimal early: the harder scenarios, unless this grade ran them.
void print_stretch(const worlds::Exercise& exercise, const SelectionRequest& request) {
  const auto stretch = exercise.stretch();
  if (stretch.empty() || request.scenario.value_or("").starts_with("stretch")) return;
  fmt::print(
      "\nstretch scenarios, for a candidate optimal early (--scenario stretch, or one by "
      "name):\n");
  for (const worlds::ScenarioInfo& s : stretch) fmt::print("  {}: {}\n", s.name, s.description);
}

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

bool write_file(const std::string& path, const std::string& text) {
  std::ofstream file(path, std::ios::binary);
  file << text << '\n';
  return static_cast<bool>(file);
}

// The first line a command prints, or "" when it fails.
std::string first_line_of(const std::string& command) {
  std::string line;
  if (FILE* pipe = ::popen(command.c_str(), "r")) {
    char buffer[256];
    if (std::fgets(buffer, sizeof buffer, pipe)) line = buffer;
    ::pclose(pipe);
  }
  while (!line.empty() && (line.back() == '\n' || line.back() == '\r')) line.pop_back();
  return line;
}

// `graded`: the bytes of the graded source, if the judge has them.
Provenance provenance(const std::optional<std::string>& graded, double time_limit) {
  Provenance p;
  p.time_limit_s = time_limit;
  if (graded) p.submission_sha256 = sha256_hex(*graded);
  const std::string git = "git -C '" OVERLAP_SOURCE_DIR "' ";
  p.kit_commit = first_line_of(git + "rev-parse HEAD 2>/dev/null");
  if (p.kit_commit.empty()) {
    p.kit_commit = "no git";
  } else {
    p.kit_modified =
        !first_line_of(git + "status --porcelain -- . ':(exclude)exercises' 2>/dev/null").empty();
  }
  return p;
}

// Said last, whatever the grade's outcome: when the file has changed since the version graded
// was read (it was saved while the kit built, or during the grade), the candidate must know that
// what they read is not of the file they now see.
class SavedAgain {
 public:
  SavedAgain(std::string file, std::string shown, std::string graded)
      : file_(std::move(file)), shown_(std::move(shown)), graded_(std::move(graded)) {}
  SavedAgain(const SavedAgain&) = delete;
  SavedAgain& operator=(const SavedAgain&) = delete;
  ~SavedAgain() {
    if (file_bytes(file_) == graded_) return;
    std::cout.flush();  // after the report, also when both go to one file
    fmt::print(stderr,
               "overlap: {} was saved again after the grade began: the above is of the version "
               "saved when the command started; grade again for the newer one\n",
               protocol::escape_control(shown_));
  }

 private:
  std::string file_, shown_, graded_;
};

// What runs a submission: the exercise's launcher, and the submission's shared object.
struct Runnable {
  std::string launcher, program;
};

// One scenario, its program started by `host`, or under gdb when there is none.
ScenarioResult run(const worlds::Exercise& exercise, const std::string& scenario,
                   const Runnable& submission, double time_limit, SandboxHost* host) {
  // Started once the scenario is planned: its deadline is the submission's alone.
  std::optional<Program> program;
  ScenarioResult result = exercise.run(scenario, [&]() -> worlds::Link& {
    return host ? program.emplace(*host, submission.program, time_limit)
                : program.emplace(submission.launcher, submission.program);
  });
  if (program) result.output = program->output();
  return result;
}

// A debug run: the scenario under gdb, what the judge saw, and no verdict.
int debug(const worlds::Exercise& exercise, const std::string& scenario,
          const Runnable& submission) {
  fmt::print(
      "overlap: debug run of {} ({}) under gdb: no deadline, no verdict, and none of the "
      "sandbox's namespaces (the system-call filter holds)\n",
      exercise.name(), scenario);
  std::cout.flush();
  const ScenarioResult result = run(exercise, scenario, submission, 0, nullptr);
  fmt::print("overlap: debug run over at {:g} ms of simulated time, {} violation(s)\n",
             result.makespan_ms, result.violations_total);
  for (const auto& v : result.violations) {
    fmt::print("  [{}] at {:g} ms: {}\n", v.kind, v.at_ms, v.message);
  }
  return 0;
}

// What a grade was asked for, checked: the command line parsed, its scenarios drawn.
struct Request {
  po::variables_map args;
  std::unique_ptr<const worlds::Exercise> exercise;
  SelectionRequest scenarios;
  Selection selection;
  double time_limit = 0;
  bool namespaces = true;
  std::string source;   // the train.cpp to build, or "" with --program
  std::string program;  // with --program, the submission already built
  std::string shown;    // the graded file, as the report names it
};

// The family of the compiler this judge builds with: each has its own judge and build folder.
std::string own_compiler() {
  return std::string_view(OVERLAP_COMPILER).starts_with("g++") ? "gcc" : "clang";
}

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

// The command line, checked before anything is built or graded.
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
  if (request.namespaces) check_namespaces();
  return request;
}

// The bytes graded, read once: the copy taken when the command started
// (--saved), or the file itself. None with --program.
std::optional<std::string> read_graded(const Request& request) {
  if (request.source.empty()) return std::nullopt;
  const std::string saved =
      request.args.count("saved") ? request.args["saved"].as<std::string>() : request.source;
  for (const std::string& file : {request.source, saved}) {
    if (!std::filesystem::is_regular_file(file)) {
      throw Stop{kUsage, fmt::format("no such file: {}", file)};
    }
  }
  if (std::filesystem::file_size(saved) > kMaxSourceBytes) {
    throw Stop{kBuildFailed, fmt::format("the submission was not graded: {} is over {} MiB",
                                         request.source, kMaxSourceBytes >> 20)};
  }
  std::optional<std::string> graded = file_bytes(saved);
  if (!graded) throw Stop{kUsage, fmt::format("cannot read {}", saved)};
  return graded;
}

// The submission's shared object: `graded` built in `scratch`, or the --program given.
std::string build(const Request& request, const std::optional<std::string>& graded,
                  const Scratch& scratch) {
  if (!graded) {
    const std::string& program = request.program;
    if (!std::filesystem::is_regular_file(program) || ::access(program.c_str(), R_OK) != 0) {
      throw Stop{kUsage, fmt::format("no such submission (a built shared object): {}", program)};
    }
    return program;
  }
  // Before the compile starts: a cold build takes a few seconds.
  fmt::print(stderr, "overlap: building the submission with {}\n", OVERLAP_COMPILER);
  std::variant<Built, BuildFailure> built;
  try {
    built = build_submission(request.exercise->name(), request.source, *graded, scratch.path(),
                             kBuildSeconds, request.namespaces);
  } catch (const std::exception& e) {
    throw Stop{kGraderError, fmt::format("grader error: the submission's build: {}", e.what())};
  }
  if (auto* failure = std::get_if<BuildFailure>(&built)) {
    const std::string messages = compiler_messages(failure->message);
    fmt::print(stderr, "{}", messages);
    throw Stop{kBuildFailed, "the submission was not graded: it did not build (see above)"};
  }
  return std::get<Built>(built).program;
}

// Every scenario selected, run and judged. `graded`: the bytes whose fingerprint the report gives.
Report grade_scenarios(const Request& request, const Runnable& submission,
                       const std::optional<std::string>& graded) {
  const auto started = std::chrono::steady_clock::now();
  const worlds::Exercise& exercise = *request.exercise;
  Report report;
  report.exercise = exercise.name();
  // A file's name is any bytes: the report's text is UTF-8.
  report.submission = protocol::escape_control(request.shown);
  report.compiler = OVERLAP_COMPILER;
  report.provenance = provenance(graded, request.time_limit);
  report.provenance.namespaces = request.namespaces;
  report.seed = request.selection.seed;
  std::optional<SandboxHost> host;
  try {
    host.emplace(submission.launcher, request.namespaces);
  } catch (const std::exception& e) {
    throw Stop{kGraderError, fmt::format("grader error: cannot start the sandbox: {}", e.what())};
  }
  for (const worlds::ScenarioInfo& scenario : request.selection.scenarios) {
    ScenarioResult result;
    try {
      result = run(exercise, scenario.name, submission, request.time_limit, &*host);
    } catch (const std::exception& e) {
      throw Stop{kGraderError,
                 fmt::format("grader error in scenario {}: {}", scenario.name, e.what())};
    }
    verdict::rate(result);
    report.scenarios.push_back(std::move(result));
  }
  report.verdict = overall(report.scenarios);
  if (!request.args.count("interviewer")) keep_figures_only(report);
  report.real_seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
  return report;
}

// The report printed (whole, or its summary) and written to the files asked for; the grade's exit
// code.
int write_reports(const Request& request, const Report& report) {
  const po::variables_map& args = request.args;
  if (args.count("summary")) {
    report::print_summary(report, std::cout);
  } else {
    report::print_text(report, std::cout);
  }
  if (args.count("interviewer")) print_stretch(*request.exercise, request.scenarios);
  const std::pair<const char*, std::function<std::string()>> files[] = {
      {"json", [&] { return boost::json::serialize(report::to_json(report)); }},
      {"trace", [&] { return boost::json::serialize(report::trace_json(report)); }},
      {"html", [&] { return report::html_page(report); }}};
  for (const auto& [option, text] : files) {
    if (args.count(option) && !write_file(args[option].as<std::string>(), text())) {
      throw Stop{kUsage, fmt::format("cannot write {}", args[option].as<std::string>())};
    }
  }
  return exit_code(report.verdict);
}

}  // namespace

// parse → build → grade → write; each step stops the grade with its exit code when it must.
int main(int argc, char** argv) {
  // A program that dies makes our writes fail with EPIPE, not kill the judge.
  ::signal(SIGPIPE, SIG_IGN);
  std::optional<SavedAgain> saved_again;  // said last, whatever the outcome
  try {
    const Request request = parse(argc, argv);
    // A submission is built here, in a scratch folder of this run's own, removed at the end.
    const Scratch scratch;
    std::optional<std::string> graded = read_graded(request);
    if (graded) saved_again.emplace(request.source, request.shown, *graded);
    const std::string program = build(request, graded, scratch);
    Runnable submission;
    try {
      submission = {launcher_of(request.exercise->name()), program};
      if (request.args.count("gdb")) {
        return debug(*request.exercise, request.selection.scenarios.front().name, submission);
      }
    } catch (const std::exception& e) {
      throw Stop{kGraderError, fmt::format("grader error: {}", e.what())};
    }
    if (request.args.count("source")) graded = file_bytes(request.args["source"].as<std::string>());
    return write_reports(request, grade_scenarios(request, submission, graded));
  } catch (const Stop& stop) {
    if (!stop.message.empty()) fmt::print(stderr, "overlap: {}\n", stop.message);
    return stop.code;
  }
}

}  // namespace overlap::judge
