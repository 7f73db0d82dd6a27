// Mutant: keeps every gradient in one map by micro-batch and moves the map's whole contents into
// each apply: from step 1 on, the earlier steps' entries are moved-from (empty) Gradients.
#include <map>
#include <overlap/grad_accum.hpp>
#include <vector>

namespace ga = overlap::grad_accum;

void train(ga::Trainer& t) {
  const int n = t.micro_batches_per_step();
  std::map<int, ga::Gradient> gradients;  // the bug: never cleared
  ga::Checkpoint best;
  for (int step = 0, bad = 0; step < t.max_steps(); ++step) {
    const ga::Weights weights = t.weights();
    for (int i = 0; i < n; ++i) {
      gradients[step * n + i] = t.worker(0).compute(weights, step * n + i);
    }
    std::vector<ga::Gradient> batch;
    for (auto& [mb, g] : gradients) batch.push_back(std::move(g));
    t.apply(std::move(batch));
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
