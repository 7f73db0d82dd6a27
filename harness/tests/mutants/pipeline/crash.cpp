// Mutant: a null pointer written through after the first step (the scenario crashes; the others
// are still graded).
#include <overlap/pipeline.hpp>

namespace pp = overlap::pipeline;

int* volatile nowhere = nullptr;

void train(pp::Pipeline& pipe) {
  for (int mb = 0; mb < pipe.micro_batches(); ++mb) {
    pp::Tensor x = pipe.input(0, mb);
    for (int s = 0; s < pipe.num_stages(); ++s) x = pipe.stage(s).forward(mb, x);
  }
  *nowhere = 1;
}

OVERLAP_TRAIN(train)
