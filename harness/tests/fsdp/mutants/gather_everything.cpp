// Mutant: gathers every layer up front, then computes (out of memory: more layers gathered at
// once than the rank's parameter buffers).
#include <overlap/fsdp.hpp>

namespace fsdp = overlap::fsdp;

void train(fsdp::Rank& rank) {
  const int layers = rank.num_layers();
  for (int l = 0; l < layers; ++l) {
    rank.copy_in(l);
    rank.all_gather(l);
  }
  for (int l = 0; l < layers; ++l) rank.forward(l);
  for (int l = layers - 1; l >= 0; --l) {
    rank.backward(l);
    rank.reduce_scatter(l);
    rank.release(l);
  }
  rank.optimizer_step();
}

OVERLAP_TRAIN(train)
