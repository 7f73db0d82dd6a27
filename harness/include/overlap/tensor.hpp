// A small dense float64 matrix: a micro-batch of activations or gradients, one row per sample.
// Copying one is cheap (a few dozen numbers); you pass tensors around, you never do math on them.
#pragma once

#include <cstddef>
#include <vector>

namespace overlap {

class Tensor {
 public:
  Tensor() = default;
  Tensor(int rows, int cols) : rows_(rows), cols_(cols), data_(std::size_t(rows) * cols, 0.0) {}

  int rows() const { return rows_; }
  int cols() const { return cols_; }
  bool empty() const { return data_.empty(); }

  double& operator()(int r, int c) { return data_[std::size_t(r) * cols_ + c]; }
  double operator()(int r, int c) const { return data_[std::size_t(r) * cols_ + c]; }

  friend bool operator==(const Tensor&, const Tensor&) = default;

 private:
  int rows_ = 0;
  int cols_ = 0;
  std::vector<double> data_;
};

}  // namespace overlap
