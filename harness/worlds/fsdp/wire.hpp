// The fsdp world's part of the protocol, shared by the judge and the submission's client.
//   hello   ranks, layers, parameter buffers, gradient buffers (per rank; the same on every rank)
//   calls   (operation, then its arguments; every call names the rank that makes it)
//     copy_in         rank, layer  -> completion
//     all_gather      rank, layer  -> completion
//     forward         rank, layer  -> completion
//     backward        rank, layer  -> completion
//     reduce_scatter  rank, layer  -> completion
//     optimizer_step  rank         -> completion
//     release         rank, layer  -> nothing, at once
//   state   nothing
#pragma once

#include <cstdint>

#include "../../protocol/frames.hpp"

namespace overlap::fsdp::wire {

enum Op : std::uint16_t {
  copy_in,
  all_gather,
  forward,
  backward,
  reduce_scatter,
  optimizer_step,
  release
};
inline constexpr protocol::Operation operations[] = {
    {"copy_in", true},        {"all_gather", true},     {"forward", true}, {"backward", true},
    {"reduce_scatter", true}, {"optimizer_step", true}, {"release", false}};

}  // namespace overlap::fsdp::wire
