// Style: blocking calls only. train is one actor, so each call waits for the one before: no two
// devices are ever busy at once, and the makespan is the sum of every gradient, optimizer step
// and validation, as in the starter. No blocking program can do better; this one at least
// spreads the micro-batches over the workers and decides from a list of checks.
#include <overlap/grad_accum.hpp>
#include <vector>

namespace ga = overlap::grad_accum;

void train(ga::Trainer& t) {
  const int n = t.micro_batches_per_step();
  // The fastest worker: with one call at a time, spreading work over workers gains nothing.
  int fastest = 0;
  for (int w = 1; w < t.num_workers(); ++w) {
    if (t.worker(w).ms_per_gradient() < t.worker(fastest).ms_per_gradient()) fastest = w;
  }
  std::vector<ga::Checkpoint> checks;
  int best = -1;  // index into checks of the last check that improved
  while (t.step() < t.max_steps()) {
    const ga::Weights weights = t.weights();
    std::vector<ga::Gradient> gradients;
    for (int i = 0; i < n; ++i)
      gradients.push_back(t.worker(fastest).compute(weights, t.step() * n + i));
    t.apply(std::move(gradients));
    if (t.step() % t.validate_every() != 0) continue;

    checks.push_back(t.validator(int(checks.size()) % t.num_validators()).validate(t.snapshot()));
    if (best < 0 || checks.back().loss() < checks[best].loss() - t.min_delta())
      best = int(checks.size()) - 1;
    if (int(checks.size()) - 1 - best == t.patience()) break;
  }
  t.stop(checks[best]);
}

OVERLAP_TRAIN(train)
