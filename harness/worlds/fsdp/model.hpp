// The real math of the FSDP world: a stack of small dense layers (tanh on all but the last),
// each layer's parameters one flat vector split into equal shards, one per rank; each rank
// trains on its own rows; the loss is the mean squared error over every rank's rows.
#pragma once

#include <cstdint>
#include <vector>

namespace overlap::fsdp::model {

constexpr int kWidth = 4;  // every layer is kWidth -> kWidth
constexpr int kRowsPerRank = 4;
constexpr double kLearningRate = 0.1;

using Vector = std::vector<double>;

// A layer's parameters: kWidth x kWidth weights, then kWidth biases, padded to whole shards.
int shard_size(int ranks);
Vector initial_parameters(std::uint64_t seed, int layer, int ranks);  // padded

// One rank's rows and targets.
Vector inputs(std::uint64_t seed, int rank);   // kRowsPerRank x kWidth
Vector targets(std::uint64_t seed, int rank);  // kRowsPerRank x kWidth

// Forward through one layer; `last` is linear.
Vector forward(const Vector& params, const Vector& x, bool last);
// d(loss)/d(output of the last layer) for one rank's rows, scaled for the mean over all ranks.
Vector loss_gradient(const Vector& output, const Vector& target, int ranks);
// Backward through one layer: returns d(loss)/d(input) and sets `gradient` (full, padded).
Vector backward(const Vector& params, const Vector& x, const Vector& y, const Vector& dy, bool last,
                Vector& gradient);

}  // namespace overlap::fsdp::model
