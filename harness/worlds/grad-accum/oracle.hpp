// The sequential reference: every step's N gradients on that step's weights, averaged; the
// validation loss of every check; what early stopping decides over them.
#pragma once

#include <vector>

#include "model.hpp"
#include "scenarios.hpp"

namespace overlap::grad_accum {

struct OracleRun {
  Decision decision;
  std::vector<model::Vector> check_weights;  // the weights validated by check c, at [c - 1]
};

OracleRun oracle(const Scenario& s);

}  // namespace overlap::grad_accum
