// The pipeline world's part of the protocol, shared by the judge and the submission's client.
//   hello   stages p, micro-batches m, steps, rows per micro-batch, then per stage its stash
//           budget, then the p + 1 layer widths (stage s maps widths[s] to widths[s + 1])
//   calls   (operation, then its arguments; a tensor is its handle)
//     input           step, micro-batch                -> tensor, at once
//     loss_gradient   step, micro-batch, output tensor -> tensor, at once
//     forward         stage, micro-batch, x            -> completion: rows, cols
//     backward        stage, micro-batch, gradient     -> completion: rows, cols
//     optimizer_step  stage                            -> completion
//   state   nothing
#pragma once

#include <cstdint>

#include "../../protocol/frames.hpp"

namespace overlap::pipeline::wire {

enum Op : std::uint16_t { input, loss_gradient, forward, backward, optimizer_step };
inline constexpr protocol::Operation operations[] = {{"input", false},
                                                     {"loss_gradient", false},
                                                     {"forward", true},
                                                     {"backward", true},
                                                     {"optimizer_step", true}};

}  // namespace overlap::pipeline::wire
