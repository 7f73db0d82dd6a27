// The real math of the parameter-server world: linear regression on deterministic synthetic
// data, mini-batch gradients of the mean squared error, and SGD steps.
#pragma once

#include <cstdint>
#include <vector>

namespace overlap::param_server::model {

constexpr int kFeatures = 8;
constexpr int kRowsPerMiniBatch = 8;
constexpr double kLearningRate = 0.2;

using Vector = std::vector<double>;

struct Data {
  std::uint64_t seed;
  int mini_batches;
};

Vector initial_weights();  // zeros
// d(loss of mini_batch)/d(weights) at `weights`.
Vector gradient(const Data& data, const Vector& weights, int mini_batch);
// One SGD step with the mean of `gradients` (one gradient: asynchronous SGD's update).
void apply(Vector& weights, const std::vector<const Vector*>& gradients);
// The mean squared error (halved) over every mini-batch.
double loss(const Data& data, const Vector& weights);

}  // namespace overlap::param_server::model
