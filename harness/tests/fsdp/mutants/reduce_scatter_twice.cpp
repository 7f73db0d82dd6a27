// Mutant: the starter with layer 0's reduce_scatter issued twice (a retry "to be sure"). The
// second finds its gradient already handed over: a misuse, refused (it used to crash the judge).
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
    if (l == 0) rank.reduce_scatter(l);  // again
    rank.release(l);
  }
  rank.optimizer_step();
}

OVERLAP_TRAIN(train)
