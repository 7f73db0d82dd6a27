// The grad-accum world's part of the protocol, shared by the judge and the submission's client.
//   hello   N (micro-batches per step), K (validate every), snapshot slots, patience, min_delta
//           (a real), max steps, validators, workers, then per worker its ms per gradient (reals)
//   calls   (operation, then its arguments; an object is its handle, 0 for an empty one)
//     weights    nothing                            -> weights, at once (their step: the state's)
//     snapshot   nothing                            -> snapshot, at once (its step: the state's)
//     stop       checkpoint                         -> at once
//     compute    worker, weights, micro-batch       -> completion: gradient's micro-batch, step
//     validate   validator, snapshot                -> completion: checkpoint's step, loss (real)
//     apply      count, then that many gradients    -> completion
//   state   the step (optimizer steps applied so far)
// Weights and checkpoints are copies on the client: a call reads them and they stay. Gradients
// and snapshots are move-only: apply and validate consume theirs.
#pragma once

#include <cstdint>

#include "../../protocol/frames.hpp"

namespace overlap::grad_accum::wire {

enum Op : std::uint16_t { weights, snapshot, stop, compute, validate, apply };
inline constexpr protocol::Operation operations[] = {{"weights", false}, {"snapshot", false},
                                                     {"stop", false},    {"compute", true},
                                                     {"validate", true}, {"apply", true}};

}  // namespace overlap::grad_accum::wire
