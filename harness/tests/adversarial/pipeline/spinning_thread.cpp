// Adversarial: the starter, beside a thread of its own that never blocks (it spins, and could
// call the cluster at any moment). No instant can end while it runs: the run stops at the time
// limit, and the report says that a thread of the submission never blocked.
#include <overlap/pipeline.hpp>
#include <thread>

namespace pp = overlap::pipeline;

void train(pp::Pipeline& pipe) {
  std::thread([] {
    for (volatile unsigned long spins = 0;; spins = spins + 1) {
    }
  }).detach();
  for (int step = 0; step < pipe.steps(); ++step) {
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
