// The param-server world's part of the protocol, shared by the judge and the submission's client.
//   hello   workers W, mini-batches, staleness bound (-1: none), then per worker its mean time
//           per gradient in ms (a real)
//   calls   (operation, then its arguments; weights and gradients are handles)
//     pull           worker                          -> completion: version, worker
//     compute        worker, weights, mini-batch     -> completion: mini-batch, version, worker
//     push           worker, gradient                -> completion
//     apply_average  count n, then n gradients       -> completion
//                    (n <= W + 1: of a longer list the client sends the first W + 1, among
//                    which the world is sure to find what it rejects the list for)
//   state   the server's version, then per worker 1 if it has failed, else 0
// Errors come in the overlap category (misuse) and overlap.param_server (worker_failed).
#pragma once

#include <cstdint>

#include "../../protocol/frames.hpp"

namespace overlap::param_server::wire {

enum Op : std::uint16_t { pull, compute, push, apply_average };
inline constexpr protocol::Operation operations[] = {
    {"pull", true}, {"compute", true}, {"push", true}, {"apply_average", true}};

}  // namespace overlap::param_server::wire
