#include "cli.hpp"

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
#include <iostream>
#include <optional>
#include <sstream>

#include "../grade/verdict.hpp"
#include "../protocol/text.hpp"
#include "../report/html_report.hpp"
#include "../report/report_json.hpp"
#include "../report/text_report.hpp"
#include "../report/trace.hpp"
#include "../sandbox/empty_root.hpp"
#include "../worlds/common/graded_exercise.hpp"
#include "build.hpp"
#include "files.hpp"
#include "program.hpp"
#include "sandbox_host.hpp"
#include "scratch.hpp"
#include "selection.hpp"
#include "session.hpp"
#include "sha256.hpp"

namespace overlap::grade {

namespace po = boost::program_options;

namespace {

constexpr int kUsage = 2;
constexpr int kBuildFailed = 3;
constexpr int kGraderError = 4;
constexpr double kBuildSeconds = 120;   // the compile and link of one submission
constexpr double kMaxTimeLimit = 3600;  // --time-limit, seconds
constexpr std::uintmax_t kMaxSourceBytes = 16 << 20;

// The graded file as the report names it.
std::string shown_name(const po::variables_map& args, const std::string& graded) {
  return args.count("submission-name") ? args["submission-name"].as<std::string>() : graded;
}

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
void print_stretch(const worlds::GradedExercise& exercise, const SelectionRequest& request) {
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
bool report_files_usable(const po::variables_map& args) {
  const auto canonical = [](const std::string& file) {
    std::error_code error;
    std::filesystem::path path =
        std::filesystem::weakly_canonical(std::filesystem::absolute(file), error);
    return error ? std::filesystem::absolute(file).lexically_normal() : path;
  };
  std::vector<std::pair<const char*, std::filesystem::path>> seen;
  if (args.count("submission")) {  // a report must not overwrite the graded file
    seen.emplace_back("submission", canonical(args["submission"].as<std::string>()));
  }
  for (const char* option : kReportOptions) {
    if (!args.count(option)) continue;
    const std::string file = args[option].as<std::string>();
    const std::filesystem::path path = canonical(file);
    for (const auto& [other, other_path] : seen) {
      if (path == other_path) {
        fmt::print(stderr, "overlap: --{} and --{} name the same file, {}: give each its own\n",
                   other, option, file);
        return false;
      }
    }
    seen.emplace_back(option, path);
  }
  for (const char* option : kReportOptions) {
    if (!args.count(option)) continue;
    const std::string file = args[option].as<std::string>();
    if (const std::string why = unwritable(file); !why.empty()) {
      fmt::print(stderr, "overlap: cannot write --{} {}: {}\n", option, file, why);
      return false;
    }
  }
  return true;
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
ScenarioResult run(const worlds::GradedExercise& exercise, const std::string& scenario,
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
int debug(const worlds::GradedExercise& exercise, const std::string& scenario,
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

}  // namespace

int main(int argc, char** argv) {
  // A program that dies makes our writes fail with EPIPE, not kill the judge.
  ::signal(SIGPIPE, SIG_IGN);
  po::options_description options("options");
  options.add_options()                                                                         //
      ("help,h", "this help")                                                                   //
      ("exercise", po::value<std::string>(), "the exercise (first argument)")                   //
      ("program", po::value<std::string>(), "a built submission (its shared object) to grade")  //
      ("submission", po::value<std::string>(), "a train.cpp to build and grade")                //
      ("scenario", po::value<std::string>(),
       "grade one scenario (a name, or seed-S-k), or 'named', 'generated' or 'stretch' "
       "(default: named and generated)")  //
      ("seed", po::value<std::uint64_t>(),
       "the seed of the generated scenarios (default: the public seed 1)")  //
      ("generated", po::value<int>()->default_value(worlds::kDefaultGenerated),
       "how many generated scenarios to grade")  //
      ("replay", po::value<std::string>(),
       "grade exactly the scenarios of this JSON report (its seed and names)")  //
      ("interviewer",
       "show how each best known makespan is reached, and list the stretch scenarios (not for "
       "the candidate)")                                                                     //
      ("json", po::value<std::string>(), "write the versioned JSON report to this file")     //
      ("trace", po::value<std::string>(), "write a Chrome trace (Perfetto) to this file")    //
      ("html", po::value<std::string>(), "write a self-contained HTML report to this file")  //
      ("time-limit", po::value<double>()->default_value(10),
       "real seconds a scenario may take before it fails")  //
      ("saved", po::value<std::string>(),
       "grade this copy of --submission, taken when the command started (the report still names "
       "--submission, and says if the file has been saved again since)")                          //
      ("submission-name", po::value<std::string>(), "the graded file, as the report names it")    //
      ("source", po::value<std::string>(), "the graded file, for its fingerprint in the report")  //
      ("session", po::value<std::string>(),
       "append this grade to the current session of this sessions folder (the candidate's "
       "file, graded through the script)")  //
      ("recorded-at", po::value<std::int64_t>(),
       "the time the session records for this grade, in seconds since the epoch (a regrade of "
       "an imported session keeps the candidate's times)")                                    //
      ("gdb", "run the submission program under gdb, one scenario, no deadline: no verdict")  //
      ("no-sandbox",
       "build and run the submission without the sandbox's namespaces (the system-call filter "
       "and the limits stay; the report says so): for a machine that cannot make them");
  po::positional_options_description positional;
  positional.add("exercise", 1);
  po::variables_map args;
  try {
    po::store(po::command_line_parser(argc, argv).options(options).positional(positional).run(),
              args);
    po::notify(args);
  } catch (const po::error& e) {
    fmt::print(stderr,
               "overlap: {}; valid options: --scenario NAME, --seed S, --generated N, "
               "--replay FILE, --interviewer, --program FILE, --json FILE, --trace FILE, "
               "--html FILE, --time-limit SECONDS, --saved FILE, --submission-name NAME, "
               "--source FILE, "
               "--gdb, --no-sandbox\n",
               e.what());
    return kUsage;
  }
  const auto exercise_ptr =
      args.count("exercise") ? worlds::exercise_named(args["exercise"].as<std::string>()) : nullptr;
  if (!exercise_ptr) {
    fmt::print(stderr,
               "overlap: usage: overlap-judge EXERCISE --program FILE [options]; valid "
               "exercises: {}\n",
               fmt::join(worlds::exercise_names(), ", "));
    return kUsage;
  }
  const worlds::GradedExercise& exercise = *exercise_ptr;
  if (args.count("help")) {
    std::cout << "usage: overlap-judge " << exercise.name() << " --program FILE [options]\n"
              << options;
    fmt::print("scenarios: {}\n", valid_scenarios(exercise));
    return 0;
  }
  if (args.count("program") == args.count("submission")) {
    fmt::print(stderr,
               "overlap: say what to grade: --submission FILE (a train.cpp) or --program "
               "FILE (a submission already built: its shared object)\n");
    return kUsage;
  }
  if (args.count("saved") && !args.count("submission")) {
    fmt::print(stderr, "overlap: --saved is a copy of --submission: give both\n");
    return kUsage;
  }
  if (args.count("replay") &&
      (args.count("scenario") || args.count("seed") || !args["generated"].defaulted())) {
    fmt::print(stderr,
               "overlap: --replay grades the scenarios of its report: give no --scenario, "
               "--seed or --generated with it\n");
    return kUsage;
  }
  SelectionRequest request;
  if (args.count("scenario")) request.scenario = args["scenario"].as<std::string>();
  if (args.count("seed")) request.seed = args["seed"].as<std::uint64_t>();
  request.generated = args["generated"].as<int>();
  if (args.count("replay")) request.replay = args["replay"].as<std::string>();
  Selection selection;
  try {
    selection = select_scenarios(exercise, request);
  } catch (const UsageError& e) {
    fmt::print(stderr, "overlap: {}\n", e.what());
    return kUsage;
  } catch (const std::exception& e) {
    fmt::print(stderr, "overlap: grader error: cannot draw the scenarios: {}\n", e.what());
    return kGraderError;
  }
  const std::vector<worlds::ScenarioInfo>& selected = selection.scenarios;
  // Real seconds: an hour is far past any honest run, and the launcher's CPU limit is set from it.
  const double time_limit = args["time-limit"].as<double>();
  if (!(time_limit > 0 && time_limit <= kMaxTimeLimit)) {
    fmt::print(stderr, "overlap: --time-limit must be in (0, {:g}] seconds\n", kMaxTimeLimit);
    return kUsage;
  }
  if (!report_files_usable(args)) return kUsage;
  // A grade needs the namespaces, or says plainly that it went without. A person debugging their
  // own file under gdb runs it without them (the build keeps them).
  const bool namespaces = !args.count("no-sandbox");
  if (namespaces) {
    try {
      if (const std::string why = sandbox::namespaces_unavailable(); !why.empty()) {
        fmt::print(stderr, "overlap: grader error: the sandbox cannot be made here: {}\n", why);
        return kGraderError;
      }
    } catch (const std::exception& e) {
      fmt::print(stderr, "overlap: grader error: cannot try the sandbox: {}\n", e.what());
      return kGraderError;
    }
  }
  // A submission is built here, in a scratch folder of this run's own, removed at the end.
  const Scratch scratch;
  std::string program, source;
  std::optional<std::string> graded;  // the bytes graded, read once (the session records them)
  std::optional<SavedAgain> saved_again;
  const auto record = [&](const session::Event& event) {
    if (!args.count("session")) return;
    try {
      session::append(session::current_session(args["session"].as<std::string>()), event);
    } catch (const std::exception& e) {
      fmt::print(stderr, "overlap: the session did not record this grade: {}\n", e.what());
    }
  };
  const std::int64_t recorded_at =
      args.count("recorded-at") ? args["recorded-at"].as<std::int64_t>() : session::now_seconds();
  const std::string scenario_option = request.scenario.value_or("");
  if (args.count("submission")) {
    source = args["submission"].as<std::string>();
    const std::string saved = args.count("saved") ? args["saved"].as<std::string>() : source;
    for (const std::string& file : {source, saved}) {
      if (!std::filesystem::is_regular_file(file)) {
        fmt::print(stderr, "overlap: no such file: {}\n", file);
        return kUsage;
      }
    }
    if (std::filesystem::file_size(saved) > kMaxSourceBytes) {
      fmt::print(stderr, "overlap: the submission was not graded: {} is over {} MiB\n", source,
                 kMaxSourceBytes >> 20);
      return kBuildFailed;
    }
    graded = file_bytes(saved);
    if (!graded) {
      fmt::print(stderr, "overlap: cannot read {}\n", saved);
      return kUsage;
    }
    saved_again.emplace(source, shown_name(args, source), *graded);
    // Before the compile starts: a cold build takes a few seconds.
    fmt::print(stderr, "overlap: building the submission with {}\n", OVERLAP_COMPILER);
    std::variant<Built, BuildFailure> built;
    try {
      built = build_submission(exercise.name(), source, *graded, scratch.path(), kBuildSeconds,
                               namespaces);
    } catch (const std::exception& e) {
      fmt::print(stderr, "overlap: grader error: the submission's build: {}\n", e.what());
      return kGraderError;
    }
    if (auto* failure = std::get_if<BuildFailure>(&built)) {
      const std::string messages = compiler_messages(failure->message);
      fmt::print(stderr, "{}overlap: the submission was not graded: it did not build (see above)\n",
                 messages);
      record(session::build_failure_event(*graded, recorded_at, selection.seed, scenario_option,
                                          request.generated, messages));
      return kBuildFailed;
    }
    program = std::get<Built>(built).program;
  } else {
    program = args["program"].as<std::string>();
    if (!std::filesystem::is_regular_file(program) || ::access(program.c_str(), R_OK) != 0) {
      fmt::print(stderr, "overlap: no such submission (a built shared object): {}\n", program);
      return kUsage;
    }
  }

  Runnable submission;
  try {
    submission = {launcher_of(exercise.name()), program};
  } catch (const std::exception& e) {
    fmt::print(stderr, "overlap: grader error: {}\n", e.what());
    return kGraderError;
  }
  if (args.count("gdb")) {
    try {
      return debug(exercise, selected.front().name, submission);
    } catch (const std::exception& e) {
      fmt::print(stderr, "overlap: grader error: {}\n", e.what());
      return kGraderError;
    }
  }

  const auto started = std::chrono::steady_clock::now();
  Report report;
  report.exercise = exercise.name();
  // A file's name is any bytes: the report's text is UTF-8.
  report.submission = protocol::escape_control(shown_name(args, source.empty() ? program : source));
  report.compiler = OVERLAP_COMPILER;
  if (args.count("source")) graded = file_bytes(args["source"].as<std::string>());
  report.provenance = provenance(graded, time_limit);
  report.provenance.namespaces = namespaces;
  report.seed = selection.seed;
  std::optional<SandboxHost> host;
  try {
    host.emplace(submission.launcher, namespaces);
  } catch (const std::exception& e) {
    fmt::print(stderr, "overlap: grader error: cannot start the sandbox: {}\n", e.what());
    return kGraderError;
  }
  for (const worlds::ScenarioInfo& scenario : selected) {
    ScenarioResult result;
    try {
      result = run(exercise, scenario.name, submission, time_limit, &*host);
    } catch (const std::exception& e) {
      fmt::print(stderr, "overlap: grader error in scenario {}: {}\n", scenario.name, e.what());
      return kGraderError;
    }
    judge(result);
    report.scenarios.push_back(std::move(result));
  }
  report.verdict = overall(report.scenarios);
  if (!args.count("interviewer")) keep_figures_only(report);
  report.real_seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();

  std::ostringstream printed;
  report::print_text(report, printed);
  std::cout << printed.str();
  record(session::grade_event(report, graded.value_or(""), recorded_at, scenario_option,
                              request.generated, printed.str()));
  if (args.count("interviewer")) print_stretch(exercise, request);
  if (args.count("json") && !write_file(args["json"].as<std::string>(),
                                        boost::json::serialize(report::to_json(report)))) {
    fmt::print(stderr, "overlap: cannot write {}\n", args["json"].as<std::string>());
    return kUsage;
  }
  if (args.count("trace") && !write_file(args["trace"].as<std::string>(),
                                         boost::json::serialize(report::trace_json(report)))) {
    fmt::print(stderr, "overlap: cannot write {}\n", args["trace"].as<std::string>());
    return kUsage;
  }
  if (args.count("html") &&
      !write_file(args["html"].as<std::string>(), report::html_page(report))) {
    fmt::print(stderr, "overlap: cannot write {}\n", args["html"].as<std::string>());
    return kUsage;
  }
  return exit_code(report.verdict);
}

}  // namespace overlap::grade
