// Mutant: snapshots the weights after every step "in case", validating only the due ones; the
// other snapshots keep their slots (out of memory).
#include <overlap/grad_accum.hpp>
#include <vector>

namespace ga = overlap::grad_accum;

void train(ga::Trainer& t) {
  const int n = t.micro_batches_per_step();
  std::vector<ga::Snapshot> kept;
  ga::Checkpoint best;
  int bad = 0;
  for (int step = 0; step < t.max_steps(); ++step) {
    const ga::Weights weights = t.weights();
    std::vector<ga::Gradient> gradients;
    for (int i = 0; i < n; ++i) gradients.push_back(t.worker(0).compute(weights, step * n + i));
    t.apply(std::move(gradients));
    ga::Snapshot snapshot = t.snapshot();  // the bug: every step, each holding a slot
    if (t.step() % t.validate_every() != 0) {
      kept.push_back(std::move(snapshot));
      continue;
    }
    const ga::Checkpoint c = t.validator(0).validate(std::move(snapshot));
    if (best.step() < 0 || c.loss() < best.loss() - t.min_delta()) {
      best = c, bad = 0;
    } else if (++bad == t.patience()) {
      break;
    }
  }
  t.stop(best);
}

OVERLAP_TRAIN(train)
