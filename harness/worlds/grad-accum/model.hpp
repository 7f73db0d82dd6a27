// The real math of the gradient-accumulation world: a linear model trained by SGD on a small
// training set whose best fit is not the validation set's, so that validation loss falls while
// the weights approach the validation optimum and rises as training carries them past it.
// Features are scaled unevenly, so gradient descent takes a curved path (the fast directions
// first) and passes close to the validation optimum on its way.
#pragma once

#include <cstdint>
#include <vector>

namespace overlap::grad_accum::model {

constexpr int kFeatures = 4;
constexpr int kRowsPerMiniBatch = 4;
constexpr int kTrainingRows = 64;  // the micro-batch stream cycles over them
constexpr int kValidationRows = 64;

using Vector = std::vector<double>;

struct Data {
  std::uint64_t seed;
  double learning_rate;
};

Vector initial_weights();  // zeros
Vector gradient(const Data& data, const Vector& weights, int micro_batch);
// One optimizer step with the mean of `gradients`.
void apply(const Data& data, Vector& weights, const std::vector<const Vector*>& gradients);
// The validation set's mean squared error, relative to the untrained model's (1 at the start).
double validation_loss(const Data& data, const Vector& weights);

}  // namespace overlap::grad_accum::model
