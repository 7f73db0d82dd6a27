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

#include "../protocol/text.hpp"
#include "../report/html_report.hpp"
#include "../report/report_json.hpp"
#include "../report/text_report.hpp"
#include "../report/trace.hpp"
#include "../verdict/verdict.hpp"
#include "../worlds/common/exercise.hpp"
#include "build.hpp"
#include "files.hpp"
#include "options.hpp"
#include "program.hpp"
#include "request.hpp"
#include "sandbox_host.hpp"
#include "scratch.hpp"
#include "selection.hpp"
#include "sha256.hpp"

namespace overlap::judge {

using verdict::Provenance;
using verdict::Report;
using verdict::ScenarioResult;

namespace po = boost::program_options;

namespace {

constexpr double kBuildSeconds = 120;  // the compile and link of one submission
constexpr std::uintmax_t kMaxSourceBytes = 16 << 20;

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
    // A tracked file changed: files the kit's users write in the checkout (reports, sessions)
    // are no change to the kit.
    const std::string changed = first_line_of(
        git + "status --porcelain --untracked-files=no -- . ':(exclude)exercises' 2>/dev/null");
    p.kit_modified = !changed.empty();
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
