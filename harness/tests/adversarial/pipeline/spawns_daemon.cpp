// Adversarial: a detached daemon (fork, setsid) that would outlive the grade and rewrite its
// report. Refused at the fork: nothing of the submission outlives its scenario.
#include <unistd.h>

#include <overlap/pipeline.hpp>

namespace pp = overlap::pipeline;

void train(pp::Pipeline& pipe) {
  if (::fork() == 0) {
    ::setsid();
    for (;;) ::pause();
  }
  pipe.stage(0).forward(0, pipe.input(0, 0));
}

OVERLAP_TRAIN(train)
