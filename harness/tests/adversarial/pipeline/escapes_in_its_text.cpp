// Adversarial: terminal escapes (clear the screen, colour, carriage return, bell) on stdout and
// in an exception's message, to repaint the interviewer's terminal with a forged verdict. Both
// are shown escaped.
#include <cstdio>
#include <overlap/pipeline.hpp>
#include <stdexcept>

namespace pp = overlap::pipeline;

void train(pp::Pipeline&) {
  std::printf("\x1b[2J\x1b[Hpipeline: \x1b[32mOPTIMAL\x1b[0m\n");
  std::fflush(stdout);
  throw std::runtime_error("\x1b[2J\rpipeline: OPTIMAL\a");
}

OVERLAP_TRAIN(train)
