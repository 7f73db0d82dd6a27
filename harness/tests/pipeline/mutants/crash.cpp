// Mutant: a null pointer written through after one micro-batch's forwards (the scenario crashes,
// with the work before it on the timeline; the other scenarios are still graded).
#include <overlap/pipeline.hpp>

namespace pp = overlap::pipeline;

int* volatile nowhere = nullptr;

// One micro-batch forward (within every stash budget), then a null write.
void train(pp::Pipeline& pipe) {
  pp::Tensor x = pipe.input(0, 0);
  for (int s = 0; s < pipe.num_stages(); ++s) x = pipe.stage(s).forward(0, x);
  *nowhere = 1;
}

OVERLAP_TRAIN(train)
