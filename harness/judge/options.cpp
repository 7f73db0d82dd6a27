#include "options.hpp"

#include <cstdint>

#include "../worlds/common/generated.hpp"

namespace overlap::judge {

namespace po = boost::program_options;

po::options_description grade_options() {
  po::options_description options("grade options");
  options.add_options()                                                                   //
      ("solution", "grade the kit's reference solution, solutions/<exercise>/train.cpp")  //
      ("submission", po::value<std::string>()->value_name("FILE"),
       "grade this train.cpp, from anywhere (default: exercises/<exercise>/train.cpp)")  //
      ("compiler", po::value<std::string>()->value_name("clang|gcc"),
       "build the submission with clang++ (the default) or g++: each has its own judge, in "
       "build/ and build-gcc/")  //
      ("scenario", po::value<std::string>()->value_name("NAME"),
       "grade one scenario (a name, or seed-S-k), or 'named', 'generated' or 'stretch' (harder "
       "ones, for a candidate optimal early; default: named and generated)")  //
      ("seed", po::value<std::uint64_t>()->value_name("S"),
       "draw the generated scenarios from seed S (default: the public seed 1)")  //
      ("generated", po::value<int>()->value_name("N")->default_value(worlds::kDefaultGenerated),
       "how many generated scenarios to grade")  //
      ("replay", po::value<std::string>()->value_name("FILE"),
       "grade exactly the scenarios of this --json report again (its seed and names)")  //
      ("interviewer",
       "add how each best known makespan is reached, and list the stretch scenarios (not for "
       "the candidate)")  //
      ("json", po::value<std::string>()->value_name("FILE"),
       "write the versioned JSON report to FILE")  //
      ("trace", po::value<std::string>()->value_name("FILE"),
       "write a Chrome trace (open it in https://ui.perfetto.dev) to FILE")  //
      ("html", po::value<std::string>()->value_name("FILE"),
       "write a self-contained HTML report (verdicts, timelines) to FILE")  //
      ("summary",
       "print each scenario's verdict and first violation and the total, not the whole report "
       "(what watch shows)")  //
      ("time-limit", po::value<double>()->value_name("S")->default_value(10),
       "real seconds a scenario may take before it fails")                         //
      ("gdb", "run one scenario's submission under gdb: no deadline, no verdict")  //
      ("no-sandbox",
       "build and run the submission without the sandbox's namespaces, for a machine that cannot "
       "make them (the system-call filter and the limits stay; the report says so)");
  return options;
}

std::string grade_option_list() {
  const po::options_description options = grade_options();
  std::string list;
  for (const auto& option : options.options()) {
    if (!list.empty()) list += ", ";
    list += option->canonical_display_name(po::command_line_style::allow_long);
    if (option->semantic()->max_tokens() == 0) continue;  // a switch
    // The value's name, without the default that program_options appends: " (=10)".
    const std::string value = option->semantic()->name();
    list += " " + value.substr(0, value.find(" (="));
  }
  return list;
}

po::options_description judge_options() {
  po::options_description own("the judge's own (the script and the kit's tests set them)");
  own.add_options()                                                                //
      ("help,h", "this help")                                                      //
      ("exercise", po::value<std::string>(), "the exercise (the first argument)")  //
      ("program", po::value<std::string>()->value_name("FILE"),
       "grade a submission already built (its shared object)")  //
      ("saved", po::value<std::string>()->value_name("FILE"),
       "grade this copy of the file, taken when the command started (the report still names "
       "the file, and says if it has been saved again since)")  //
      ("submission-name", po::value<std::string>()->value_name("NAME"),
       "the graded file, as the report names it")  //
      ("source", po::value<std::string>()->value_name("FILE"),
       "the graded file, for its fingerprint in the report (with --program)");
  po::options_description all;
  all.add(grade_options()).add(own);
  return all;
}

po::variables_map parse_options(int argc, char** argv, Table table) {
  po::options_description options;
  if (table == Table::judge) {
    options.add(judge_options());
  } else {
    po::options_description frame;
    frame.add_options()("help,h", "")("exercise", po::value<std::string>());
    options.add(frame).add(grade_options());
  }
  po::positional_options_description positional;
  positional.add("exercise", 1);
  // Without guessing: --sol is not --solution, as the script reads the options it acts on.
  const int style = po::command_line_style::default_style & ~po::command_line_style::allow_guessing;
  po::variables_map args;
  try {
    po::store(po::command_line_parser(argc, argv)
                  .options(options)
                  .positional(positional)
                  .style(style)
                  .run(),
              args);
    po::notify(args);
  } catch (const po::error& e) {
    throw OptionError(std::string(e.what()) + "; valid options: " + grade_option_list());
  }
  if (args.count("compiler")) {
    const std::string compiler = args["compiler"].as<std::string>();
    if (compiler != "clang" && compiler != "gcc") {
      throw OptionError("unknown compiler '" + compiler + "'; valid compilers: clang, gcc");
    }
  }
  return args;
}

}  // namespace overlap::judge
