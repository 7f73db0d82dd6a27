// The grad-accum world's part of the protocol, shared by the judge and the submission's client:
// its operations (protocol/operation.hpp), and its hello, state and results as described structs
// (protocol/described.hpp), with the ranges the judge holds the arguments to. An object is its
// handle, 0 for an empty one. Weights and checkpoints are copies on the client: a call reads
// them and they stay. Gradients and snapshots are move-only: apply and validate consume theirs.
#pragma once

#include <boost/describe/class.hpp>
#include <cstdint>
#include <limits>
#include <string_view>
#include <vector>

#include "../../protocol/described.hpp"
#include "../../protocol/frames.hpp"
#include "../../protocol/operation.hpp"

namespace overlap::grad_accum::wire {

struct Hello {
  int micro_batches;   // N: per optimizer step
  int validate_every;  // K
  int snapshot_slots, patience;
  double min_delta;
  int max_steps, validators;
  std::vector<double> worker_ms;  // per worker: its ms per gradient
};
BOOST_DESCRIBE_STRUCT(Hello, (),
                      (micro_batches, validate_every, snapshot_slots, patience, min_delta,
                       max_steps, validators, worker_ms))

// Sent with every batch.
struct State {
  int step;  // optimizer steps applied so far
};
BOOST_DESCRIBE_STRUCT(State, (), (step))

struct GradientFacts {
  int micro_batch, step;
};
BOOST_DESCRIBE_STRUCT(GradientFacts, (), (micro_batch, step))
struct CheckpointFacts {
  int step;
  double loss;
};
BOOST_DESCRIBE_STRUCT(CheckpointFacts, (), (step, loss))

// weights and snapshot take nothing and make their object at once (its step: the state's).
struct Weights {
  static constexpr std::string_view api = "Trainer::weights";
  using Result = protocol::Now;
};
BOOST_DESCRIBE_STRUCT(Weights, (), ())
struct Snapshot {
  static constexpr std::string_view api = "Trainer::snapshot";
  using Result = protocol::Now;
};
BOOST_DESCRIBE_STRUCT(Snapshot, (), ())
struct Stop {
  static constexpr std::string_view api = "Trainer::stop";
  using Result = protocol::Now;
  protocol::Handle checkpoint;
};
BOOST_DESCRIBE_STRUCT(Stop, (), (checkpoint))
struct Compute {
  static constexpr std::string_view api = "Worker::compute";
  using Result = GradientFacts;
  int worker;
  protocol::Handle weights;
  int micro_batch;
};
BOOST_DESCRIBE_STRUCT(Compute, (), (worker, weights, micro_batch))
struct Validate {
  static constexpr std::string_view api = "Validator::validate";
  using Result = CheckpointFacts;
  int validator;
  protocol::Handle snapshot;
};
BOOST_DESCRIBE_STRUCT(Validate, (), (validator, snapshot))
struct Apply {
  static constexpr std::string_view api = "Trainer::apply";
  using Result = protocol::Done;
  std::vector<protocol::Handle> gradients;
};
BOOST_DESCRIBE_STRUCT(Apply, (), (gradients))

using Operations = boost::mp11::mp_list<Weights, Snapshot, Stop, Compute, Validate, Apply>;
Operations operations_of(const auto&);

// The judge's ranges for the arguments above, in the hello's terms.
inline constexpr protocol::Range<Hello> ranges[] = {
    {"worker", "worker", 0,
     [](const Hello& h) { return static_cast<int>(h.worker_ms.size()) - 1; }},
    {"validator", "validator", 0, [](const Hello& h) { return h.validators - 1; }},
    {"micro_batch", "micro-batch"},
    {"gradients", "gradient count", 0,
     [](const Hello&) { return std::numeric_limits<int>::max() - 1; }},
};

}  // namespace overlap::grad_accum::wire
