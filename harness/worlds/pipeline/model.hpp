// The real math of the pipeline world: a small float64 MLP, one dense layer per stage (tanh on
// every stage but the last), mean squared error, plain SGD; and its deterministic data. Shared by
// the world and the sequential oracle.
#pragma once

#include <cstdint>
#include <overlap/tensor.hpp>
#include <vector>

namespace overlap::pipeline::model {

struct Layer {
  Tensor weight;             // outputs x inputs
  std::vector<double> bias;  // outputs
  bool tanh = true;          // false on the last stage
};

// What forward keeps for backward: the layer's input and output.
struct Stash {
  Tensor input;
  Tensor output;
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

Tensor input(const Shape& shape, std::uint64_t seed, int step, int micro_batch);
Tensor target(const Shape& shape, std::uint64_t seed, int step, int micro_batch);

// d(loss)/d(output) for the mean squared error over the whole step (all micro-batches).
Tensor loss_gradient(const Shape& shape, const Tensor& output, const Tensor& target);
double loss(const Shape& shape, const Tensor& output, const Tensor& target);

Tensor forward(const Layer& layer, const Tensor& x);
// Adds this micro-batch's weight and bias gradient to `sum`; returns d(loss)/d(input).
Tensor backward(const Layer& layer, const Stash& stash, const Tensor& grad, Layer& sum);
void sgd_step(Layer& layer, Layer& gradient_sum, double learning_rate);

}  // namespace overlap::pipeline::model
