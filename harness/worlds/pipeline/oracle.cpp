#include "oracle.hpp"

namespace overlap::pipeline {

OracleRun oracle(const model::Shape& shape, std::uint64_t seed, int steps) {
  OracleRun run{model::initial_layers(shape, seed), {}};
  std::vector<model::Layer> sums;
  for (const model::Layer& layer : run.layers) sums.push_back(model::zero_like(layer));
  const int stages = static_cast<int>(run.layers.size());
  for (int step = 0; step < steps; ++step) {
    double step_loss = 0;
    for (int mb = 0; mb < shape.micro_batches; ++mb) {
      std::vector<model::Stash> stashes;
      model::Matrix x = model::input(shape, seed, step, mb);
      for (int s = 0; s < stages; ++s) {
        model::Matrix y = model::forward(run.layers[s], x);
        stashes.push_back({std::move(x), y});
        x = std::move(y);
      }
      const model::Matrix t = model::target(shape, seed, step, mb);
      step_loss += model::loss(shape, x, t);
      model::Matrix g = model::loss_gradient(shape, x, t);
      for (int s = stages - 1; s >= 0; --s)
        g = model::backward(run.layers[s], stashes[s], g, sums[s]);
    }
    for (int s = 0; s < stages; ++s) model::sgd_step(run.layers[s], sums[s], shape.learning_rate);
    run.step_loss.push_back(step_loss);
  }
  return run;
}

}  // namespace overlap::pipeline
