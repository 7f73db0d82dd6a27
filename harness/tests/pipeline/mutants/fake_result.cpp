// Mutant: skips the work and only steps the optimizers, as if the gradients were there.
#include <overlap/pipeline.hpp>

namespace pp = overlap::pipeline;

void train(pp::Pipeline& pipe) {
  for (int step = 0; step < pipe.steps(); ++step) {
    for (int s = 0; s < pipe.num_stages(); ++s) pipe.stage(s).optimizer_step();
  }
}

OVERLAP_TRAIN(train)
