#include "model.hpp"

#include <cmath>
#include <stdexcept>

#include "../common/random.hpp"

namespace overlap::pipeline::model {

namespace {

enum Stream : std::uint64_t { kWeight = 1, kBias, kInput, kTargetMap };

}  // namespace

Shape shape_for(int stages, int micro_batches) {
  Shape shape;
  shape.widths.assign(stages + 1, 8);
  shape.widths.front() = 6;
  shape.widths.back() = 3;
  shape.micro_batches = micro_batches;
  return shape;
}

std::vector<Layer> initial_layers(const Shape& shape, std::uint64_t seed) {
  std::vector<Layer> layers;
  const int stages = static_cast<int>(shape.widths.size()) - 1;
  for (int s = 0; s < stages; ++s) {
    const int in = shape.widths[s];
    const int out = shape.widths[s + 1];
    const double scale = 1.0 / std::sqrt(static_cast<double>(in));
    Layer layer{Matrix(out, in), std::vector<double>(out), s + 1 < stages};
    for (int o = 0; o < out; ++o) {
      for (int i = 0; i < in; ++i)
        layer.weight(o, i) = scale * worlds::uniform(seed, kWeight, s, o, i);
      layer.bias[o] = 0.1 * worlds::uniform(seed, kBias, s, o, 0);
    }
    layers.push_back(std::move(layer));
  }
  return layers;
}

Layer zero_like(const Layer& layer) {
  return {Matrix(layer.weight.rows(), layer.weight.cols()), std::vector<double>(layer.bias.size()),
          layer.tanh};
}

Matrix input(const Shape& shape, std::uint64_t seed, int step, int micro_batch) {
  Matrix x(shape.rows, shape.widths.front());
  for (int r = 0; r < x.rows(); ++r) {
    for (int c = 0; c < x.cols(); ++c) {
      x(r, c) =
          worlds::uniform(seed, kInput, static_cast<std::uint64_t>(step) << 32 | micro_batch, r, c);
    }
  }
  return x;
}

// The function to learn: sin of a fixed random linear map of the input.
Matrix target(const Shape& shape, std::uint64_t seed, int step, int micro_batch) {
  const Matrix x = input(shape, seed, step, micro_batch);
  Matrix t(shape.rows, shape.widths.back());
  for (int r = 0; r < t.rows(); ++r) {
    for (int o = 0; o < t.cols(); ++o) {
      double z = 0;
      for (int i = 0; i < x.cols(); ++i) z += x(r, i) * worlds::uniform(seed, kTargetMap, o, i, 0);
      t(r, o) = std::sin(z);
    }
  }
  return t;
}

Matrix loss_gradient(const Shape& shape, const Matrix& output, const Matrix& target) {
  if (output.rows() != target.rows() || output.cols() != target.cols()) {
    throw std::invalid_argument("loss_gradient: the output is not a last-stage output");
  }
  const double scale = 1.0 / (shape.rows * shape.micro_batches);
  Matrix g(output.rows(), output.cols());
  for (int r = 0; r < g.rows(); ++r) {
    for (int c = 0; c < g.cols(); ++c) g(r, c) = scale * (output(r, c) - target(r, c));
  }
  return g;
}

double loss(const Shape& shape, const Matrix& output, const Matrix& target) {
  double sum = 0;
  for (int r = 0; r < output.rows(); ++r) {
    for (int c = 0; c < output.cols(); ++c) {
      const double d = output(r, c) - target(r, c);
      sum += d * d;
    }
  }
  return sum / (2.0 * shape.rows * shape.micro_batches);
}

Matrix forward(const Layer& layer, const Matrix& x) {
  Matrix y(x.rows(), layer.weight.rows());
  for (int r = 0; r < x.rows(); ++r) {
    for (int o = 0; o < layer.weight.rows(); ++o) {
      double z = layer.bias[o];
      for (int i = 0; i < x.cols(); ++i) z += layer.weight(o, i) * x(r, i);
      y(r, o) = layer.tanh ? std::tanh(z) : z;
    }
  }
  return y;
}

Matrix backward(const Layer& layer, const Stash& stash, const Matrix& grad, Layer& sum) {
  const Matrix& x = stash.input;
  Matrix dz = grad;
  if (layer.tanh) {
    for (int r = 0; r < dz.rows(); ++r) {
      for (int o = 0; o < dz.cols(); ++o) {
        const double y = stash.output(r, o);
        dz(r, o) *= 1.0 - y * y;
      }
    }
  }
  Matrix dx(x.rows(), x.cols());
  for (int r = 0; r < x.rows(); ++r) {
    for (int o = 0; o < dz.cols(); ++o) {
      sum.bias[o] += dz(r, o);
      for (int i = 0; i < x.cols(); ++i) {
        sum.weight(o, i) += dz(r, o) * x(r, i);
        dx(r, i) += dz(r, o) * layer.weight(o, i);
      }
    }
  }
  return dx;
}

void sgd_step(Layer& layer, Layer& gradient_sum, double learning_rate) {
  for (int o = 0; o < layer.weight.rows(); ++o) {
    layer.bias[o] -= learning_rate * gradient_sum.bias[o];
    gradient_sum.bias[o] = 0;
    for (int i = 0; i < layer.weight.cols(); ++i) {
      layer.weight(o, i) -= learning_rate * gradient_sum.weight(o, i);
      gradient_sum.weight(o, i) = 0;
    }
  }
}

}  // namespace overlap::pipeline::model
