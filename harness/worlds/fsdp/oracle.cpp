#include "oracle.hpp"

namespace overlap::fsdp {

std::vector<model::Vector> oracle(const Scenario& s) {
  std::vector<model::Vector> params, sum;
  for (int l = 0; l < s.layers; ++l) {
    params.push_back(model::initial_parameters(s.seed, l, s.ranks));
    sum.emplace_back(params.back().size(), 0.0);
  }
  for (int r = 0; r < s.ranks; ++r) {  // summed in rank order, as a reduce-scatter does
    std::vector<model::Vector> inputs, outputs;
    model::Vector x = model::inputs(s.seed, r);
    for (int l = 0; l < s.layers; ++l) {
      inputs.push_back(x);
      x = model::forward(params[l], x, l + 1 == s.layers);
      outputs.push_back(x);
    }
    model::Vector dy = model::loss_gradient(x, model::targets(s.seed, r), s.ranks);
    for (int l = s.layers - 1; l >= 0; --l) {
      model::Vector g;
      dy = model::backward(params[l], inputs[l], outputs[l], dy, l + 1 == s.layers, g);
      for (std::size_t j = 0; j < g.size(); ++j) sum[l][j] = r == 0 ? g[j] : sum[l][j] + g[j];
    }
  }
  for (int l = 0; l < s.layers; ++l) {
    for (std::size_t j = 0; j < params[l].size(); ++j) {
      params[l][j] -= model::kLearningRate * sum[l][j];
    }
  }
  return params;
}

}  // namespace overlap::fsdp
