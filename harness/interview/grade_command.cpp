#include "grade_command.hpp"

#include <fmt/format.h>

#include <boost/program_options.hpp>
#include <sstream>

#include "../judge/files.hpp"
#include "../judge/options.hpp"
#include "../worlds/common/generated.hpp"
#include "command_line.hpp"
#include "commands.hpp"
#include "judge_run.hpp"
#include "session.hpp"

namespace overlap::interview {

namespace fs = std::filesystem;
namespace po = boost::program_options;

namespace {

// What a grade's options say of the record: the file graded (--saved, or else --submission), the
// scenarios asked for, whether they are the default set, and the JSON report asked for ("" for
// none).
struct GradeAsked {
  std::string file;
  std::string report;
  std::string scenario;
  std::uint64_t seed = worlds::kPublicSeed;
  int generated = worlds::kDefaultGenerated;
  bool full_set = false;
};
GradeAsked asked_of(const std::vector<std::string>& judge_args) {
  std::vector<char*> argv = {const_cast<char*>("overlap-judge")};
  for (const std::string& a : judge_args) argv.push_back(const_cast<char*>(a.c_str()));
  po::variables_map args;
  try {
    args = judge::parse_options(static_cast<int>(argv.size()), argv.data());
  } catch (const judge::OptionError&) {
    return {};  // the judge names what is wrong; nothing is graded, nothing recorded
  }
  GradeAsked asked;
  for (const char* option : {"saved", "submission"}) {
    if (asked.file.empty() && args.count(option)) asked.file = args[option].as<std::string>();
  }
  if (args.count("json")) asked.report = args["json"].as<std::string>();
  if (args.count("scenario")) asked.scenario = args["scenario"].as<std::string>();
  if (args.count("seed")) asked.seed = args["seed"].as<std::uint64_t>();
  asked.generated = args["generated"].as<int>();
  // Another set, another deadline or no verdict at all is not a tier of the file.
  asked.full_set = asked.scenario.empty() && asked.seed == worlds::kPublicSeed &&
                   asked.generated == worlds::kDefaultGenerated && !args.count("replay") &&
                   args["time-limit"].defaulted() && !args.count("gdb");
  return asked;
}

// What the judge printed on standard error without its own lines ("overlap: building the
// submission ..."): the compiler's messages, or what the build refused.
std::string without_the_judges_lines(const std::string& messages) {
  std::istringstream in(messages);
  std::string out;
  for (std::string line; std::getline(in, line);) {
    if (!line.starts_with("overlap: ")) out += line + '\n';
  }
  return out;
}

// The event a judge's run of `asked` records, or none: a usage or grader error records nothing.
std::optional<Event> event_of(const JudgeRun& run, const GradeAsked& asked,
                              const std::optional<std::string>& source, std::int64_t time) {
  if (run.exit == 3) {
    // Refused unread (too large) or not built: recorded as such, with the text when it was read.
    return build_failure_event(source.value_or(""), time, asked.seed, asked.scenario,
                               asked.generated, without_the_judges_lines(run.messages),
                               asked.full_set);
  }
  if (run.report && source) {
    return grade_event(*run.report, *source, time, asked.scenario, asked.generated, run.printed,
                       asked.full_set);
  }
  if (run.exit == 0 || run.exit == 1) {
    throw std::runtime_error("the judge graded without a report to record");
  }
  return std::nullopt;
}

int grade_command(int argc, char** argv) {
  int split = 1;
  while (split < argc && std::string_view(argv[split]) != "--") ++split;
  po::options_description options("grade options");
  options.add_options()                       //
      ("exercise", po::value<std::string>())  //
      ("sessions", po::value<std::string>())  //
      ("judge", po::value<std::string>())     //
      ("started-at", po::value<std::int64_t>());
  const po::variables_map args = parse(split, argv, options);
  if (!args.count("judge")) throw UsageError("grade needs the judge: --judge FILE");
  const std::vector<std::string> judge_args(argv + std::min(split + 1, argc), argv + argc);
  const std::int64_t now = now_seconds();
  // The command's start (the script's, before its build): a session it begins starts there, so
  // that minute 0 is the first command. Never later than now.
  const std::int64_t started =
      args.count("started-at") ? std::min(args["started-at"].as<std::int64_t>(), now) : now;
  std::optional<fs::path> session;
  try {
    session = current_session(sessions_of(args), started);
  } catch (const std::exception& e) {
    fmt::print(stderr, "overlap: the session cannot record this grade: {}\n", e.what());
  }
  return grade_into(session, args["judge"].as<std::string>(), args["exercise"].as<std::string>(),
                    judge_args, now, true);
}

}  // namespace

int grade_into(const std::optional<fs::path>& session, const std::string& judge_program,
               const std::string& exercise, const std::vector<std::string>& judge_args,
               std::int64_t time, bool pass_through) {
  const GradeAsked asked = asked_of(judge_args);
  std::optional<std::string> source;
  if (!asked.file.empty() && fs::is_regular_file(asked.file) &&
      fs::file_size(asked.file) <= kMaxSourceBytes) {
    source = judge::file_bytes(asked.file);
  }
  std::vector<std::string> args = {exercise};
  args.insert(args.end(), judge_args.begin(), judge_args.end());
  const JudgeRun run = run_judge(judge_program, args, asked.report, pass_through);
  if (!session) return run.exit;
  try {
    if (const std::optional<Event> event = event_of(run, asked, source, time)) {
      append(*session, *event);
    }
  } catch (const std::exception& e) {
    fmt::print(stderr, "overlap: the session did not record this grade: {}\n", e.what());
  }
  return run.exit;
}

Regrade grade_text(const std::string& judge_program, const std::string& exercise,
                   const std::string& source, const fs::path& work, std::int64_t time,
                   const std::vector<std::string>& extra) {
  fs::create_directories(work);
  const fs::path file = work / "train.cpp";
  write_text(file, source);
  // As `overlap grade` runs it: the default set, the file under the candidate's name.
  std::vector<std::string> judge_args = {"--submission", file.string(), "--submission-name",
                                         fmt::format("exercises/{}/train.cpp", exercise)};
  judge_args.insert(judge_args.end(), extra.begin(), extra.end());
  const GradeAsked asked = asked_of(judge_args);
  std::vector<std::string> args = {exercise};
  args.insert(args.end(), judge_args.begin(), judge_args.end());
  const JudgeRun run = run_judge(judge_program, args, "", false);
  Regrade out{run.exit, {}, run.messages};
  out.event = event_of(run, asked, source, time);
  return out;
}

int grade_main(int argc, char** argv) { return guarded(grade_command, argc, argv); }

}  // namespace overlap::interview
