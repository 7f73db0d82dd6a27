// The starter, after a signed overflow. Unsanitized, it goes unnoticed; in the sanitizer mode
// (preset asan) UndefinedBehaviorSanitizer stops the program and the grader shows why.
#include <climits>
#include <overlap/pipeline.hpp>

namespace pp = overlap::pipeline;

void train(pp::Pipeline& pipe) {
  volatile int large = INT_MAX - pipe.num_stages() + 1;
  const int steps = large + pipe.num_stages() > 0 ? pipe.steps() : 0;  // signed overflow
  for (int step = 0; step < steps; ++step) {
    for (int mb = 0; mb < pipe.micro_batches(); ++mb) {
      pp::Tensor x = pipe.input(step, mb);
      for (int s = 0; s < pipe.num_stages(); ++s) x = pipe.stage(s).forward(mb, x);
      pp::Tensor g = pipe.loss_gradient(step, mb, x);
      for (int s = pipe.num_stages() - 1; s >= 0; --s) g = pipe.stage(s).backward(mb, g);
    }
    for (int s = 0; s < pipe.num_stages(); ++s) pipe.stage(s).optimizer_step();
  }
}

OVERLAP_TRAIN(train)
