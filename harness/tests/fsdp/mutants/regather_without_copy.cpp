// Mutant: the starter without the backward pass's copy_in ("the shard is still on the device
// from the forward"), but each all_gather needs a copy_in of its own: the first gather of the
// backward pass is a misuse, and the rejected call throws.
#include <overlap/fsdp.hpp>

namespace fsdp = overlap::fsdp;

void train(fsdp::Rank& rank) {
  const int layers = rank.num_layers();
  for (int l = 0; l < layers; ++l) {
    rank.copy_in(l);
    rank.all_gather(l);
    rank.forward(l);
    if (l + 1 < layers) rank.release(l);
  }
  for (int l = layers - 1; l >= 0; --l) {
    if (l + 1 < layers) rank.all_gather(l);  // the bug: no copy_in(l) first
    rank.backward(l);
    rank.reduce_scatter(l);
    rank.release(l);
  }
  rank.optimizer_step();
}

OVERLAP_TRAIN(train)
