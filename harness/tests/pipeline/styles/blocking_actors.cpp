// Style: blocking calls only. train is one actor, so every call waits for the one before and at
// most one stage is ever busy: the makespan is the sum of all forwards and backwards whatever the
// order, exactly the starter's. No blocking program can do better here; this one runs GPipe in
// chunks of stash_budget micro-batches (all forwards of a chunk, then its backwards) to show it.
#include <algorithm>
#include <overlap/pipeline.hpp>
#include <vector>

namespace pp = overlap::pipeline;

void train(pp::Pipeline& pipe) {
  const int p = pipe.num_stages(), m = pipe.micro_batches();
  int chunk = m;
  for (int s = 0; s < p; ++s) chunk = std::min(chunk, pipe.stash_budget(s));
  for (int step = 0; step < pipe.steps(); ++step) {
    for (int first = 0; first < m; first += chunk) {
      const int last = std::min(m, first + chunk);
      std::vector<pp::Tensor> outputs;
      for (int mb = first; mb < last; ++mb) {
        pp::Tensor x = pipe.input(step, mb);
        for (int s = 0; s < p; ++s) x = pipe.stage(s).forward(mb, x);
        outputs.push_back(x);
      }
      for (int mb = last - 1; mb >= first; --mb) {
        pp::Tensor g = pipe.loss_gradient(step, mb, outputs[mb - first]);
        for (int s = p - 1; s >= 0; --s) g = pipe.stage(s).backward(mb, g);
      }
    }
    for (int s = 0; s < p; ++s) pipe.stage(s).optimizer_step();
  }
}

OVERLAP_TRAIN(train)
