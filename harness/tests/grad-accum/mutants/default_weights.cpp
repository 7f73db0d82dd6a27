// Mutant: keeps the weights in a variable refreshed after each optimizer step, but never before
// the first, so step 0 computes on a default-constructed (empty) Weights.
#include <overlap/grad_accum.hpp>
#include <vector>

namespace ga = overlap::grad_accum;

void train(ga::Trainer& t) {
  const int n = t.micro_batches_per_step();
  ga::Weights weights;  // the bug: not t.weights()
  ga::Checkpoint best;
  for (int step = 0, bad = 0; step < t.max_steps(); ++step) {
    std::vector<ga::Gradient> gradients;
    for (int i = 0; i < n; ++i) gradients.push_back(t.worker(0).compute(weights, step * n + i));
    t.apply(std::move(gradients));
    weights = t.weights();
    if (t.step() % t.validate_every() != 0) continue;
    const ga::Checkpoint c = t.validator(0).validate(t.snapshot());
    if (best.step() < 0 || c.loss() < best.loss() - t.min_delta()) {
      best = c, bad = 0;
    } else if (++bad == t.patience()) {
      break;
    }
  }
  t.stop(best);
}

OVERLAP_TRAIN(train)
