// The fsdp world's part of the protocol, shared by the judge and the submission's client: its
// operations, and its hello and calls' arguments as described structs (protocol/described.hpp),
// with the ranges the judge holds the arguments to. Every call names the rank that makes it, and
// completes (release: at once) with no results. The judge sends no state.
#pragma once

#include <boost/describe/class.hpp>
#include <cstdint>

#include "../../protocol/described.hpp"
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

struct Hello {
  int ranks, layers;
  int param_buffers, grad_buffers;  // per rank; the same on every rank
};
BOOST_DESCRIBE_STRUCT(Hello, (), (ranks, layers, param_buffers, grad_buffers))

// The arguments of optimizer_step.
struct OfRank {
  int rank;
};
BOOST_DESCRIBE_STRUCT(OfRank, (), (rank))
// The arguments of every other operation. A layer out of range is the world's to reject: a
// misuse a candidate's off-by-one makes, not a protocol error.
struct OfLayer {
  int rank, layer;
};
BOOST_DESCRIBE_STRUCT(OfLayer, (), (rank, layer))

// The judge's ranges for the arguments above, in the hello's terms.
inline constexpr protocol::Range<Hello> ranges[] = {
    {"rank", "rank", 0, [](const Hello& h) { return h.ranks - 1; }},
    {"layer", "layer"},
};

}  // namespace overlap::fsdp::wire
