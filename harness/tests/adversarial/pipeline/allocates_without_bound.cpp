// Adversarial: allocates until the machine would swap. The launcher's address-space limit
// (2 GiB) turns it into std::bad_alloc, an exception of the submission's.
#include <memory>
#include <overlap/pipeline.hpp>
#include <vector>

namespace pp = overlap::pipeline;

void train(pp::Pipeline&) {
  std::vector<std::unique_ptr<char[]>> hoard;
  for (;;) {
    // Uninitialised: the limit is on address space, and zeroing 2 GiB only costs real time.
    hoard.push_back(std::make_unique_for_overwrite<char[]>(std::size_t{64} << 20));
    hoard.back()[0] = 1;
  }
}

OVERLAP_TRAIN(train)
