// Adversarial: reaches into a kit type's private members (here by writing its bytes; `#define
// private public` does the same) to forge a tensor handle the judge never issued. There are no
// weights on this side to copy: the judge holds them.
#include <cstdint>
#include <cstring>
#include <overlap/pipeline.hpp>

namespace pp = overlap::pipeline;

void train(pp::Pipeline& pipe) {
  struct Layout {
    std::int64_t handle;
    int rows, cols;
  } fake{1'000'000, 4, 6};
  static_assert(sizeof(Layout) == sizeof(pp::Tensor));
  pp::Tensor forged;
  std::memcpy(static_cast<void*>(&forged), &fake, sizeof fake);
  pipe.stage(0).forward(0, forged);
}

OVERLAP_TRAIN(train)
