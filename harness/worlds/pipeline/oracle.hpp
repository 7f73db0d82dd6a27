// The sequential reference: every micro-batch forward through all stages, then backward, one at
// a time, an SGD step per stage after each step. No simulated time.
#pragma once

#include <vector>

#include "model.hpp"

namespace overlap::pipeline {

struct OracleRun {
  std::vector<model::Layer> layers;  // the weights after the last step
  std::vector<double> step_loss;     // the training loss of each step, before its update
};

OracleRun oracle(const model::Shape& shape, std::uint64_t seed, int steps);

}  // namespace overlap::pipeline
