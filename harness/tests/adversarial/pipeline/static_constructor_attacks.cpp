// Adversarial: a static constructor that forks, kills the judge and writes a file before main.
// The launcher loads the submission only once the filter is in force: the first attempt is
// refused and named.
#include <signal.h>
#include <unistd.h>

#include <fstream>
#include <overlap/pipeline.hpp>

namespace pp = overlap::pipeline;

namespace {

const bool attacked = [] {
  if (::fork() == 0) ::_exit(0);
  ::kill(::getppid(), SIGKILL);
  std::ofstream("/tmp/overlap-forged-report.json") << "{}";
  return true;
}();

}  // namespace

void train(pp::Pipeline&) {}

OVERLAP_TRAIN(train)
