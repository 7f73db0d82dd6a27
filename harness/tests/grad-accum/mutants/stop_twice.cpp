// Mutant: calls stop(best) as soon as early stopping decides, and keeps the starter's
// stop(best) after the loop as well: stop() twice is a misuse.
#include <overlap/grad_accum.hpp>
#include <vector>

namespace ga = overlap::grad_accum;

void train(ga::Trainer& t) {
  const int n = t.micro_batches_per_step();
  ga::Checkpoint best;
  int bad = 0;
  for (int step = 0; step < t.max_steps(); ++step) {
    const ga::Weights weights = t.weights();
    std::vector<ga::Gradient> gradients;
    for (int i = 0; i < n; ++i) gradients.push_back(t.worker(0).compute(weights, step * n + i));
    t.apply(std::move(gradients));
    if (t.step() % t.validate_every() != 0) continue;
    const ga::Checkpoint c = t.validator(0).validate(t.snapshot());
    if (best.step() < 0 || c.loss() < best.loss() - t.min_delta()) {
      best = c, bad = 0;
    } else if (++bad == t.patience()) {
      t.stop(best);
      break;
    }
  }
  t.stop(best);  // the bug: a second stop() when early stopping already decided
}

OVERLAP_TRAIN(train)
