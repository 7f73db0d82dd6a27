// Adversarial: mid-run, it prints what the launcher prints when it cannot start a program and
// exits with the launcher's code (127). The host saw the submission loaded: it is the
// submission's exit, with its status, not a program that could not be started.
#include <cstdio>
#include <cstdlib>
#include <overlap/pipeline.hpp>

namespace pp = overlap::pipeline;

void train(pp::Pipeline& pipe) {
  pp::Tensor x = pipe.input(0, 0);
  pipe.stage(0).forward(0, x);
  std::fprintf(stderr, "overlap launcher: cannot load the submission: it says so itself\n");
  std::_Exit(127);
}

OVERLAP_TRAIN(train)
