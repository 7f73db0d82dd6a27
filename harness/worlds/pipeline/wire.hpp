// The pipeline world's part of the protocol, shared by the judge and the submission's client:
// its operations (protocol/operation.hpp), and its hello and results as described structs
// (protocol/described.hpp), with the ranges the judge holds the arguments to. A tensor is its
// handle. The judge sends no state.
#pragma once

#include <boost/describe/class.hpp>
#include <cstdint>
#include <string_view>
#include <vector>

#include "../../protocol/described.hpp"
#include "../../protocol/frames.hpp"
#include "../../protocol/operation.hpp"

namespace overlap::pipeline::wire {

struct Hello {
  int micro_batches, steps;
  int rows;                        // per micro-batch
  std::vector<int> stash_budgets;  // per stage: p of them
  std::vector<int> widths;         // p + 1: stage s maps widths[s] to widths[s + 1]
  int stages() const { return static_cast<int>(stash_budgets.size()); }
};
BOOST_DESCRIBE_STRUCT(Hello, (), (micro_batches, steps, rows, stash_budgets, widths))

struct Shape {
  int rows, cols;
};
BOOST_DESCRIBE_STRUCT(Shape, (), (rows, cols))

// input and loss_gradient make a tensor at once; forward and backward complete with one's Shape.
struct Input {
  static constexpr std::string_view api = "Pipeline::input";
  using Result = protocol::Now;
  int step, micro_batch;
};
BOOST_DESCRIBE_STRUCT(Input, (), (step, micro_batch))
struct LossGradient {
  static constexpr std::string_view api = "Pipeline::loss_gradient";
  using Result = protocol::Now;
  int step, micro_batch;
  protocol::Handle output;
};
BOOST_DESCRIBE_STRUCT(LossGradient, (), (step, micro_batch, output))
struct Forward {
  static constexpr std::string_view api = "Stage::forward";
  using Result = Shape;
  int stage, micro_batch;
  protocol::Handle input;
};
BOOST_DESCRIBE_STRUCT(Forward, (), (stage, micro_batch, input))
struct Backward {
  static constexpr std::string_view api = "Stage::backward";
  using Result = Shape;
  int stage, micro_batch;
  protocol::Handle gradient;
};
BOOST_DESCRIBE_STRUCT(Backward, (), (stage, micro_batch, gradient))
struct OptimizerStep {
  static constexpr std::string_view api = "Stage::optimizer_step";
  using Result = protocol::Done;
  int stage;
};
BOOST_DESCRIBE_STRUCT(OptimizerStep, (), (stage))

using Operations = boost::mp11::mp_list<Input, LossGradient, Forward, Backward, OptimizerStep>;
Operations operations_of(const auto&);

// The judge's ranges for the arguments above, in the hello's terms.
inline constexpr protocol::Range<Hello> ranges[] = {
    {"stage", "stage", 0, [](const Hello& h) { return h.stages() - 1; }},
    {"step", "step"},
    {"micro_batch", "micro-batch"},
};

}  // namespace overlap::pipeline::wire
