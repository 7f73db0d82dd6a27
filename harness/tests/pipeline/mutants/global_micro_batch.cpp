// Mutant: one stream of micro-batches across steps, numbered globally (step * m + i) where the
// stage wants the number within the step, in [0, m): step 1's first forward is a misuse, and the
// rejected call throws.
#include <overlap/pipeline.hpp>

namespace pp = overlap::pipeline;

void train(pp::Pipeline& pipe) {
  const int m = pipe.micro_batches();
  for (int i = 0; i < pipe.steps() * m; ++i) {
    const int step = i / m;
    pp::Tensor x = pipe.input(step, i % m);
    for (int s = 0; s < pipe.num_stages(); ++s) x = pipe.stage(s).forward(i, x);  // the bug
    pp::Tensor g = pipe.loss_gradient(step, i % m, x);
    for (int s = pipe.num_stages() - 1; s >= 0; --s) g = pipe.stage(s).backward(i, g);
    if ((i + 1) % m == 0) {
      for (int s = 0; s < pipe.num_stages(); ++s) pipe.stage(s).optimizer_step();
    }
  }
}

OVERLAP_TRAIN(train)
