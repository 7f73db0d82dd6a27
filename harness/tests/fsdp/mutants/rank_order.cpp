// Mutant: odd ranks walk the backward pass in a different layer order than even ranks, so
// their collectives no longer match (collective mismatch, naming both sides).
#include <overlap/fsdp.hpp>

namespace fsdp = overlap::fsdp;

void train(fsdp::Rank& rank) {
  const int layers = rank.num_layers();
  for (int l = 0; l < layers; ++l) {
    rank.copy_in(l);
    rank.all_gather(l);
    rank.forward(l);
    rank.release(l);
  }
  // The bug: "the order does not matter for the gradients", so odd ranks start from layer 0.
  for (int i = 0; i < layers; ++i) {
    const int l = rank.index() % 2 == 0 ? layers - 1 - i : i;
    rank.copy_in(l);
    rank.all_gather(l);
    rank.backward(l);
    rank.reduce_scatter(l);
    rank.release(l);
  }
  rank.optimizer_step();
}

OVERLAP_TRAIN(train)
