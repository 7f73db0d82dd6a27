// The real math of the pipeline world: a small float64 MLP, one dense layer per stage (tanh on
// every stage but the last), mean squared error, plain SGD; and its deterministic data. Shared by
// the world and the sequential oracle.
#pragma once

#include <cstdint>
#include <vector>

#include "matrix.hpp"

namespace overlap::pipeline::model {

struct Layer {
  Matrix weight;             // outputs x inputs
  std::vector<double> bias;  // outputs
  bool tanh = true;          // false on the last stage
};

// What forward keeps for backward: the layer's input and output.
struct Stash {
  Matrix input;
  Matrix output;
};

struct Shape {
  std::vector<int> widths;  // widths[s] -> widths[s + 1] is stage s's layer
  int rows = 4;             // samples per micro-batch
  int micro_batches = 8;
  double learning_rate = 0.2;
};

Shape shape_for(int stages, int micro_batches);

std::vector<Layer> initial_layers(const Shape& shape, std::uint64_t seed);
Layer zero_like(const Layer& layer);

Matrix input(const Shape& shape, std::uint64_t seed, int step, int micro_batch);
Matrix target(const Shape& shape, std::uint64_t seed, int step, int micro_batch);

// d(loss)/d(output) for the mean squared error over the whole step (all micro-batches).
Matrix loss_gradient(const Shape& shape, const Matrix& output, const Matrix& target);
double loss(const Shape& shape, const Matrix& output, const Matrix& target);

Matrix forward(const Layer& layer, const Matrix& x);
// Adds this micro-batch's weight and bias gradient to `sum`; returns d(loss)/d(input).
Matrix backward(const Layer& layer, const Stash& stash, const Matrix& grad, Layer& sum);
void sgd_step(Layer& layer, Layer& gradient_sum, double learning_rate);

}  // namespace overlap::pipeline::model
