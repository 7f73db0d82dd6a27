// Mutant: the starter that gathers layer 0 again for the next step and returns with it
// gathered: that copy predates the optimizer step (stale), and nothing releases it.
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
    if (l + 1 < layers) {
      rank.copy_in(l);
      rank.all_gather(l);
    }
    rank.backward(l);
    rank.reduce_scatter(l);
    if (l > 0) rank.release(l);  // layer 0 kept "for the next step's first forward"
  }
  rank.optimizer_step();
}

OVERLAP_TRAIN(train)
