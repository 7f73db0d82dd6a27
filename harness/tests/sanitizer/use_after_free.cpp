// The starter, after reading a heap value it has freed. Unsanitized, the read goes unnoticed; in
// the sanitizer mode (preset asan) AddressSanitizer stops the program and the grader shows why.
#include <memory>
#include <overlap/pipeline.hpp>
#include <vector>

namespace pp = overlap::pipeline;

void train(pp::Pipeline& pipe) {
  auto stages = std::make_unique<std::vector<int>>(pipe.num_stages(), 0);
  const int* first = stages->data();
  stages.reset();
  const int reads = *first;  // heap-use-after-free
  for (int step = reads; step < pipe.steps(); ++step) {
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
