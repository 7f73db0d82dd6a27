// The param-server world's part of the protocol, shared by the judge and the submission's
// client: its operations, and its hello, state, calls' arguments and results as described
// structs (protocol/described.hpp), with the ranges the judge holds the arguments to. Weights
// and gradients are handles. Errors come in the overlap category (misuse) and
// overlap.param_server (worker_failed).
#pragma once

#include <boost/describe/class.hpp>
#include <cstdint>
#include <vector>

#include "../../protocol/described.hpp"
#include "../../protocol/frames.hpp"

namespace overlap::param_server::wire {

enum Op : std::uint16_t { pull, compute, push, apply_average };
inline constexpr protocol::Operation operations[] = {
    {"pull", true}, {"compute", true}, {"push", true}, {"apply_average", true}};

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

struct Pull {  // completes with a WeightsFacts
  int worker;
};
BOOST_DESCRIBE_STRUCT(Pull, (), (worker))
struct Compute {  // completes with a GradientFacts
  int worker;
  protocol::Handle weights;
  int mini_batch;
};
BOOST_DESCRIBE_STRUCT(Compute, (), (worker, weights, mini_batch))
struct Push {  // completes
  int worker;
  protocol::Handle gradient;
};
BOOST_DESCRIBE_STRUCT(Push, (), (worker, gradient))
// Completes. At most W + 1 gradients: of a longer list the client sends the first W + 1, among
// which the world is sure to find what it rejects the list for.
struct ApplyAverage {
  std::vector<protocol::Handle> gradients;
};
BOOST_DESCRIBE_STRUCT(ApplyAverage, (), (gradients))

struct WeightsFacts {
  int version, worker;
};
BOOST_DESCRIBE_STRUCT(WeightsFacts, (), (version, worker))
struct GradientFacts {
  int mini_batch, version, worker;
};
BOOST_DESCRIBE_STRUCT(GradientFacts, (), (mini_batch, version, worker))

// The judge's ranges for the arguments above, in the hello's terms.
inline constexpr protocol::Range<Hello> ranges[] = {
    {"worker", "worker", 0, [](const Hello& h) { return h.workers() - 1; }},
    {"mini_batch", "mini-batch"},
    {"gradients", "gradient count", 0, [](const Hello& h) { return h.workers() + 1; }},
};

}  // namespace overlap::param_server::wire
