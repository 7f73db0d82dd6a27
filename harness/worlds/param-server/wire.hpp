// The param-server world's part of the protocol, shared by the judge and the submission's
// client: its operations (protocol/operation.hpp), and its hello, state and results as described
// structs (protocol/described.hpp), with the ranges the judge holds the arguments to. Weights
// and gradients are handles. Errors come in the overlap category (misuse) and
// overlap.param_server (worker_failed).
#pragma once

#include <boost/describe/class.hpp>
#include <cstdint>
#include <string_view>
#include <vector>

#include "../../protocol/described.hpp"
#include "../../protocol/frames.hpp"
#include "../../protocol/operation.hpp"

namespace overlap::param_server::wire {

struct Hello {
  int mini_batches;
  int staleness_bound;                  // -1: none
  std::vector<double> ms_per_gradient;  // per worker: its mean time per gradient
  int workers() const { return static_cast<int>(ms_per_gradient.size()); }
};
BOOST_DESCRIBE_STRUCT(Hello, (), (mini_batches, staleness_bound, ms_per_gradient))

// Sent with every batch.
struct State {
  int version;               // the server's
  std::vector<bool> failed;  // per worker
};
BOOST_DESCRIBE_STRUCT(State, (), (version, failed))

struct WeightsFacts {
  int version, worker;
};
BOOST_DESCRIBE_STRUCT(WeightsFacts, (), (version, worker))
struct GradientFacts {
  int mini_batch, version, worker;
};
BOOST_DESCRIBE_STRUCT(GradientFacts, (), (mini_batch, version, worker))

struct Pull {
  static constexpr std::string_view api = "Worker::pull";
  using Result = WeightsFacts;
  int worker;
};
BOOST_DESCRIBE_STRUCT(Pull, (), (worker))
struct Compute {
  static constexpr std::string_view api = "Worker::compute";
  using Result = GradientFacts;
  int worker;
  protocol::Handle weights;
  int mini_batch;
};
BOOST_DESCRIBE_STRUCT(Compute, (), (worker, weights, mini_batch))
struct Push {
  static constexpr std::string_view api = "Worker::push";
  using Result = protocol::Done;
  int worker;
  protocol::Handle gradient;
};
BOOST_DESCRIBE_STRUCT(Push, (), (worker, gradient))
// At most W + 1 gradients: of a longer list the client sends the first W + 1, among which the
// world is sure to find what it rejects the list for.
struct ApplyAverage {
  static constexpr std::string_view api = "ParameterServer::apply_average";
  using Result = protocol::Done;
  std::vector<protocol::Handle> gradients;
};
BOOST_DESCRIBE_STRUCT(ApplyAverage, (), (gradients))

using Operations = boost::mp11::mp_list<Pull, Compute, Push, ApplyAverage>;
Operations operations_of(const auto&);

// The judge's ranges for the arguments above, in the hello's terms.
inline constexpr protocol::Range<Hello> ranges[] = {
    {"worker", "worker", 0, [](const Hello& h) { return h.workers() - 1; }},
    {"mini_batch", "mini-batch"},
    {"gradients", "gradient count", 0, [](const Hello& h) { return h.workers() + 1; }},
};

}  // namespace overlap::param_server::wire
