#include "cli.hpp"

#include <fmt/format.h>

#include <boost/json/serialize.hpp>
#include <boost/program_options.hpp>
#include <chrono>
#include <fstream>
#include <iostream>

#include "../report/report_json.hpp"
#include "../report/text_report.hpp"
#include "../report/trace.hpp"
#include "../result/verdict.hpp"
#include "isolate.hpp"

namespace overlap::grade {

namespace po = boost::program_options;

namespace {

constexpr int kUsage = 2;

std::string scenario_names(const worlds::Exercise& exercise) {
  std::vector<std::string> names;
  for (const auto& s : exercise.scenarios()) names.push_back(s.name);
  return fmt::format("{}", fmt::join(names, ", "));
}

bool write_file(const std::string& path, const std::string& text) {
  std::ofstream file(path, std::ios::binary);
  file << text << '\n';
  return static_cast<bool>(file);
}

}  // namespace

int main(int argc, char** argv, const worlds::Exercise& exercise, const Submission& submission) {
  po::options_description options("options");
  options.add_options()                                                                    //
      ("help,h", "this help")                                                              //
      ("scenario", po::value<std::string>(), "grade one scenario (default: all)")          //
      ("json", po::value<std::string>(), "write the versioned JSON report to this file")   //
      ("trace", po::value<std::string>(), "write a Chrome trace (Perfetto) to this file")  //
      ("time-limit", po::value<double>()->default_value(10),
       "real seconds a scenario may take before it fails")  //
      ("submission-name", po::value<std::string>(), "the graded file, as the report names it");
  po::variables_map args;
  try {
    po::store(po::command_line_parser(argc, argv).options(options).run(), args);
    po::notify(args);
  } catch (const po::error& e) {
    fmt::print(stderr,
               "overlap: {}; valid options: --scenario NAME, --json FILE, --trace FILE, "
               "--time-limit SECONDS\n",
               e.what());
    return kUsage;
  }
  if (args.count("help")) {
    std::cout << "usage: grade " << exercise.name() << " [options]\n" << options;
    fmt::print("scenarios: {}\n", scenario_names(exercise));
    return 0;
  }

  std::vector<worlds::ScenarioInfo> selected = exercise.scenarios();
  if (args.count("scenario")) {
    const std::string wanted = args["scenario"].as<std::string>();
    std::erase_if(selected, [&](const worlds::ScenarioInfo& s) { return s.name != wanted; });
    if (selected.empty()) {
      fmt::print(stderr, "overlap: unknown scenario '{}' for {}; valid scenarios: {}\n", wanted,
                 exercise.name(), scenario_names(exercise));
      return kUsage;
    }
  }
  const double time_limit = args["time-limit"].as<double>();
  if (!(time_limit > 0)) {
    fmt::print(stderr, "overlap: --time-limit must be a positive number of seconds\n");
    return kUsage;
  }

  const auto started = std::chrono::steady_clock::now();
  Report report;
  report.exercise = exercise.name();
  report.submission =
      args.count("submission-name") ? args["submission-name"].as<std::string>() : submission.file;
  report.compiler = submission.compiler;
  for (const worlds::ScenarioInfo& scenario : selected) {
    ScenarioResult result = run_isolated(exercise, scenario.name, time_limit);
    judge(result);
    report.scenarios.push_back(std::move(result));
  }
  report.verdict = overall(report.scenarios);
  report.real_seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();

  report::print_text(report, std::cout);
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
  return exit_code(report.verdict);
}

}  // namespace overlap::grade
