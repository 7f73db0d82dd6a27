#include <boost/program_options.hpp>
#include <iostream>

#include "command_line.hpp"
#include "commands.hpp"
#include "score_rule.hpp"

namespace overlap::interview {

namespace po = boost::program_options;

namespace {

int card_command(int argc, char** argv) {
  po::options_description options("card options");
  options.add_options()                       //
      ("exercise", po::value<std::string>())  //
      ("rule", po::value<std::string>())      //
      ("format", po::value<std::string>());
  const po::variables_map args = parse(argc, argv, options);
  if (!args.count("rule")) throw UsageError("--rule FILE is required");
  const ScoreRule rule = read_score_rule(args["rule"].as<std::string>());
  const std::string format_name =
      args.count("format") ? args["format"].as<std::string>() : kDefaultFormat;
  const ExerciseRule& ex = rule.exercise(args["exercise"].as<std::string>());
  const auto anchors = ex.anchors.find(format_name);
  const Format& format = rule.format(format_name);
  std::cout << card_table(format,
                          anchors == ex.anchors.end() ? std::vector<Anchor>{} : anchors->second)
            << '\n'
            << format.reading << '\n';
  return 0;
}

}  // namespace

int card_main(int argc, char** argv) { return guarded(card_command, argc, argv); }

}  // namespace overlap::interview
