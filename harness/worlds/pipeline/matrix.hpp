// A small dense float64 matrix: what a tensor handle names on the judge's side (activations,
// gradients, a layer's weights).
#pragma once

#include <cstddef>
#include <vector>

namespace overlap::pipeline::model {

class Matrix {
 public:
  Matrix() = default;
  Matrix(int rows, int cols) : rows_(rows), cols_(cols), data_(std::size_t(rows) * cols, 0.0) {}

  int rows() const { return rows_; }
  int cols() const { return cols_; }
  bool empty() const { return data_.empty(); }

  double& operator()(int r, int c) { return data_[std::size_t(r) * cols_ + c]; }
  double operator()(int r, int c) const { return data_[std::size_t(r) * cols_ + c]; }

  friend bool operator==(const Matrix&, const Matrix&) = default;

 private:
  int rows_ = 0;
  int cols_ = 0;
  std::vector<double> data_;
};

}  // namespace overlap::pipeline::model
