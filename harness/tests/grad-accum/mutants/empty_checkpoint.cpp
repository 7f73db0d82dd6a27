// Mutant: decides right, but keeps the best check's loss and step in variables of its own and
// passes stop() a default-constructed Checkpoint: there are no weights to restore.
#include <overlap/grad_accum.hpp>
#include <vector>

namespace ga = overlap::grad_accum;

void train(ga::Trainer& t) {
  const int n = t.micro_batches_per_step();
  double best_loss = 0;
  int best_step = -1, bad = 0;
  for (int step = 0; step < t.max_steps(); ++step) {
    const ga::Weights weights = t.weights();
    std::vector<ga::Gradient> gradients;
    for (int i = 0; i < n; ++i) gradients.push_back(t.worker(0).compute(weights, step * n + i));
    t.apply(std::move(gradients));
    if (t.step() % t.validate_every() != 0) continue;
    const ga::Checkpoint c = t.validator(0).validate(t.snapshot());
    if (best_step < 0 || c.loss() < best_loss - t.min_delta()) {
      best_loss = c.loss(), best_step = c.step(), bad = 0;
    } else if (++bad == t.patience()) {
      break;
    }
  }
  t.stop(ga::Checkpoint{});
}

OVERLAP_TRAIN(train)
