#include "model.hpp"

#include "../common/random.hpp"

namespace overlap::param_server::model {

namespace {

enum Stream : std::uint64_t { kTruth = 1, kFeature, kNoise };

struct Row {
  double x[kFeatures];
  double y;
};

Row row(const Data& data, int mini_batch, int r) {
  Row out{};
  const std::uint64_t sample = static_cast<std::uint64_t>(mini_batch) * kRowsPerMiniBatch + r;
  out.y = 0.1 * worlds::uniform(data.seed, kNoise, sample, 0);
  for (int i = 0; i < kFeatures; ++i) {
    out.x[i] = worlds::uniform(data.seed, kFeature, sample, i);
    out.y += out.x[i] * worlds::uniform(data.seed, kTruth, i, 0);
  }
  return out;
}

double residual(const Row& row, const Vector& w) {
  double prediction = 0;
  for (int i = 0; i < kFeatures; ++i) prediction += w[i] * row.x[i];
  return prediction - row.y;
}

}  // namespace

Vector initial_weights() { return Vector(kFeatures, 0.0); }

Vector gradient(const Data& data, const Vector& weights, int mini_batch) {
  Vector g(kFeatures, 0.0);
  for (int r = 0; r < kRowsPerMiniBatch; ++r) {
    const Row sample = row(data, mini_batch, r);
    const double e = residual(sample, weights);
    for (int i = 0; i < kFeatures; ++i) g[i] += e * sample.x[i] / kRowsPerMiniBatch;
  }
  return g;
}

void apply(Vector& weights, const std::vector<const Vector*>& gradients) {
  const double scale = kLearningRate / static_cast<double>(gradients.size());
  for (int i = 0; i < kFeatures; ++i) {
    double sum = 0;
    for (const Vector* g : gradients) sum += (*g)[i];
    weights[i] -= scale * sum;
  }
}

double loss(const Data& data, const Vector& weights) {
  double sum = 0;
  for (int mb = 0; mb < data.mini_batches; ++mb) {
    for (int r = 0; r < kRowsPerMiniBatch; ++r) {
      const double e = residual(row(data, mb, r), weights);
      sum += e * e;
    }
  }
  return sum / (2.0 * data.mini_batches * kRowsPerMiniBatch);
}

}  // namespace overlap::param_server::model
