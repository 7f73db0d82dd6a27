#include "oracle.hpp"

namespace overlap::grad_accum {

OracleRun oracle(const Scenario& s) {
  const model::Data data{s.seed, s.learning_rate};
  model::Vector w = model::initial_weights();
  OracleRun run;
  std::vector<double> losses;
  for (int step = 0; step < s.max_steps; ++step) {
    std::vector<model::Vector> gradients;
    for (int i = 0; i < s.micro_batches; ++i) {
      gradients.push_back(model::gradient(data, w, step * s.micro_batches + i));
    }
    std::vector<const model::Vector*> values;
    for (const model::Vector& g : gradients) values.push_back(&g);
    model::apply(data, w, values);
    if ((step + 1) % s.validate_every == 0) {
      losses.push_back(model::validation_loss(data, w));
      run.check_weights.push_back(w);
    }
  }
  run.decision = decide(s, losses);
  return run;
}

}  // namespace overlap::grad_accum
