// A micro-batch of activations or gradients, one row per sample, held by the cluster: you pass
// tensors from one call to the next, you never do math on them. Copying one is free (a copy
// names the same tensor); moving from one leaves it empty.
#pragma once

#include <cstdint>
#include <overlap/handle.hpp>
#include <utility>

namespace overlap {

class Tensor {
 public:
  Tensor() = default;
  Tensor(const Tensor&) = default;
  Tensor& operator=(const Tensor&) = default;
  Tensor(Tensor&& other) noexcept { *this = std::move(other); }
  Tensor& operator=(Tensor&& other) noexcept {
    handle_ = std::exchange(other.handle_, 0);
    rows_ = std::exchange(other.rows_, 0);
    cols_ = std::exchange(other.cols_, 0);
    return *this;
  }

  int rows() const { return rows_; }
  int cols() const { return cols_; }
  bool empty() const { return handle_ == 0; }

 private:
  friend struct detail::HandleAccess;
  Tensor(std::int64_t handle, int rows, int cols) : handle_(handle), rows_(rows), cols_(cols) {}
  std::int64_t handle_ = 0;
  int rows_ = 0;
  int cols_ = 0;
};

}  // namespace overlap
