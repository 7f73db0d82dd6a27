// Sharded data-parallel training, synchronous: each layer's parameters are gathered just before
// they are needed and released right after, and every collective blocks until it completes.
// Nothing overlaps. Make it fast without breaking it: see README.md.
// The grader runs this train once per rank, at the same time (SPMD).
#include <overlap/fsdp.hpp>

namespace fsdp = overlap::fsdp;

void train(fsdp::Rank& rank) {
  const int layers = rank.num_layers();
  for (int l = 0; l < layers; ++l) {
    rank.copy_in(l);
    rank.all_gather(l);
    rank.forward(l);
    if (l + 1 < layers) rank.release(l);  // the last layer stays gathered for its backward
  }
  for (int l = layers - 1; l >= 0; --l) {
    if (l + 1 < layers) {
      rank.copy_in(l);
      rank.all_gather(l);
    }
    rank.backward(l);
    rank.reduce_scatter(l);
    rank.release(l);
  }
  rank.optimizer_step();
}

OVERLAP_TRAIN(train)
