// Adversarial: a static constructor that prints a genuine-looking verdict and writes the --json
// report (its path read from its parent's command line, the judge's outside the sandbox) before
// main, then trains nothing. In the sandbox its parent is the sandbox's host and the judge is
// not in its /proc; were it there, the write would be refused. The judge writes its own report
// after every scenario, from what it saw.
#include <unistd.h>

#include <fstream>
#include <iostream>
#include <overlap/pipeline.hpp>
#include <sstream>
#include <string>
#include <vector>

namespace pp = overlap::pipeline;

namespace {

std::vector<std::string> judge_arguments() {
  std::ifstream in("/proc/" + std::to_string(::getppid()) + "/cmdline", std::ios::binary);
  std::vector<std::string> args;
  for (std::string arg; std::getline(in, arg, '\0');) args.push_back(arg);
  return args;
}

const bool forged = [] {
  std::cout << "pipeline: OPTIMAL (default optimal 3.00x)\n" << std::flush;
  const auto args = judge_arguments();
  for (std::size_t i = 0; i + 1 < args.size(); ++i) {
    if (args[i] == "--json") {
      std::ofstream(args[i + 1]) << R"({"schema":1,"verdict":"optimal","scenarios":[]})";
    }
  }
  return true;
}();

}  // namespace

void train(pp::Pipeline&) {}

OVERLAP_TRAIN(train)
