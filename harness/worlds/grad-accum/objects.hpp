// The objects behind the submission's handles (overlap/grad_accum.hpp's Weights, Gradient,
// Snapshot and Checkpoint) as the judge keeps them: their values, and the facts the handles carry.
#pragma once

#include "../common/remote.hpp"
#include "model.hpp"

namespace overlap::grad_accum::detail {

// The weights after some number of optimizer steps.
struct Weights {
  model::Vector values;
  int step = -1;  // optimizer steps applied before these weights
};

// One micro-batch's gradient.
struct Gradient {
  model::Vector values;
  int micro_batch = -1;
  int step = -1;  // the step of the weights it was computed on
};

// A copy of the weights in a snapshot slot, waiting for validation.
struct Snapshot {
  model::Vector values;
  int step = -1;
};

// A validated snapshot: its step, its loss, and its weights, for stop().
struct Checkpoint {
  model::Vector values;
  int step = -1;
  double loss = 0;
};

// Every object the submission holds a handle to, by handle (the number of the call that made it).
struct Objects {
  worlds::Handles<Weights> weights;         // copies on the client: read, never consumed
  worlds::Handles<Gradient> gradients;      // consumed by apply()
  worlds::Handles<Snapshot> snapshots;      // consumed by validate()
  worlds::Handles<Checkpoint> checkpoints;  // copies on the client: read by stop()
};

}  // namespace overlap::grad_accum::detail
