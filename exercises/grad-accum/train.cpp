// Gradient accumulation with early stopping, synchronous: worker 0 computes each step's
// micro-batches one at a time, the optimizer applies their average, and every K steps training
// waits while validator 0 validates a snapshot. Make it fast without breaking it: see README.md.
#include <overlap/grad_accum.hpp>
#include <vector>

namespace ga = overlap::grad_accum;

void train(ga::Trainer& trainer) {
  const int n = trainer.micro_batches_per_step();
  ga::Checkpoint best;
  int checks_without_improvement = 0;
  for (int step = 0; step < trainer.max_steps(); ++step) {
    const ga::Weights weights = trainer.weights();
    std::vector<ga::Gradient> gradients;
    for (int i = 0; i < n; ++i)
      gradients.push_back(trainer.worker(0).compute(weights, step * n + i));
    trainer.apply(std::move(gradients));

    if (trainer.step() % trainer.validate_every() != 0) continue;
    // Early stopping: a check improves when its loss beats the best by more than min_delta.
    const ga::Checkpoint check = trainer.validator(0).validate(trainer.snapshot());
    if (best.step() < 0 || check.loss() < best.loss() - trainer.min_delta()) {
      best = check;
      checks_without_improvement = 0;
    } else if (++checks_without_improvement == trainer.patience()) {
      break;
    }
  }
  trainer.stop(best);  // restore the best check's weights
}

OVERLAP_TRAIN(train)
