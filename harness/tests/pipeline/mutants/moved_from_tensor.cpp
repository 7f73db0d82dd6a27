// Mutant: an input moved into a queue, then the moved-from variable passed on (a moved-from
// tensor is empty: the call is a misuse, and the blocking form throws).
#include <overlap/pipeline.hpp>
#include <utility>
#include <vector>

namespace pp = overlap::pipeline;

void train(pp::Pipeline& pipe) {
  pp::Tensor x = pipe.input(0, 0);
  std::vector<pp::Tensor> queued;
  queued.push_back(std::move(x));
  pipe.stage(0).forward(0, x);  // x is empty now
}

OVERLAP_TRAIN(train)
