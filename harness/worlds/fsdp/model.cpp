#include "model.hpp"

#include <cmath>

#include "../common/random.hpp"

namespace overlap::fsdp::model {

namespace {

constexpr int kParams = kWidth * kWidth + kWidth;

enum Stream : std::uint64_t { kParam = 1, kInput, kTarget };

double& w(Vector& p, int o, int i) { return p[o * kWidth + i]; }
double w(const Vector& p, int o, int i) { return p[o * kWidth + i]; }
double& b(Vector& p, int o) { return p[kWidth * kWidth + o]; }
double b(const Vector& p, int o) { return p[kWidth * kWidth + o]; }

}  // namespace

int shard_size(int ranks) { return (kParams + ranks - 1) / ranks; }

Vector initial_parameters(std::uint64_t seed, int layer, int ranks) {
  Vector p(static_cast<std::size_t>(shard_size(ranks)) * ranks, 0.0);
  for (int j = 0; j < kParams; ++j) p[j] = 0.6 * worlds::uniform(seed, kParam, layer, j);
  return p;
}

Vector inputs(std::uint64_t seed, int rank) {
  Vector x(kRowsPerRank * kWidth);
  for (std::size_t j = 0; j < x.size(); ++j) x[j] = worlds::uniform(seed, kInput, rank, j);
  return x;
}

Vector targets(std::uint64_t seed, int rank) {
  Vector t(kRowsPerRank * kWidth);
  for (std::size_t j = 0; j < t.size(); ++j) t[j] = 0.5 * worlds::uniform(seed, kTarget, rank, j);
  return t;
}

Vector forward(const Vector& p, const Vector& x, bool last) {
  Vector y(kRowsPerRank * kWidth);
  for (int r = 0; r < kRowsPerRank; ++r) {
    for (int o = 0; o < kWidth; ++o) {
      double z = b(p, o);
      for (int i = 0; i < kWidth; ++i) z += w(p, o, i) * x[r * kWidth + i];
      y[r * kWidth + o] = last ? z : std::tanh(z);
    }
  }
  return y;
}

Vector loss_gradient(const Vector& output, const Vector& target, int ranks) {
  Vector g(output.size());
  const double scale = 1.0 / (kRowsPerRank * ranks);
  for (std::size_t j = 0; j < g.size(); ++j) g[j] = scale * (output[j] - target[j]);
  return g;
}

Vector backward(const Vector& p, const Vector& x, const Vector& y, const Vector& dy, bool last,
                Vector& gradient) {
  gradient.assign(p.size(), 0.0);
  Vector dx(x.size(), 0.0);
  for (int r = 0; r < kRowsPerRank; ++r) {
    for (int o = 0; o < kWidth; ++o) {
      const double yo = y[r * kWidth + o];
      const double dz = last ? dy[r * kWidth + o] : dy[r * kWidth + o] * (1 - yo * yo);
      b(gradient, o) += dz;
      for (int i = 0; i < kWidth; ++i) {
        w(gradient, o, i) += dz * x[r * kWidth + i];
        dx[r * kWidth + i] += dz * w(p, o, i);
      }
    }
  }
  return dx;
}

}  // namespace overlap::fsdp::model
