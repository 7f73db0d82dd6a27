// Mutant: the starter without its releases; the gathered layers pile up (out of memory).
#include <overlap/fsdp.hpp>

namespace fsdp = overlap::fsdp;

void train(fsdp::Rank& rank) {
  const int layers = rank.num_layers();
  for (int l = 0; l < layers; ++l) {
    rank.copy_in(l);
    rank.all_gather(l);
    rank.forward(l);
  }
  for (int l = layers - 1; l >= 0; --l) {
    rank.backward(l);
    rank.reduce_scatter(l);
  }
  rank.optimizer_step();
}

OVERLAP_TRAIN(train)
