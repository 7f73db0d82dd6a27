// The fsdp world's part of the protocol, shared by the judge and the submission's client: its
// operations (protocol/operation.hpp) and its hello as described structs (protocol/described.hpp),
// with the ranges the judge holds the arguments to. Every call names the rank that makes it, and
// completes (release: at once) with no results. The judge sends no state.
#pragma once

#include <boost/describe/class.hpp>
#include <cstdint>
#include <string_view>

#include "../../protocol/described.hpp"
#include "../../protocol/frames.hpp"
#include "../../protocol/operation.hpp"

namespace overlap::fsdp::wire {

struct Hello {
  int ranks, layers;
  int param_buffers, grad_buffers;  // per rank; the same on every rank
};
BOOST_DESCRIBE_STRUCT(Hello, (), (ranks, layers, param_buffers, grad_buffers))

// A layer out of range is the world's to reject: a misuse a candidate's off-by-one makes, not a
// protocol error.
struct CopyIn {
  static constexpr std::string_view api = "Rank::copy_in";
  using Result = protocol::Done;
  int rank, layer;
};
BOOST_DESCRIBE_STRUCT(CopyIn, (), (rank, layer))
struct AllGather {
  static constexpr std::string_view api = "Rank::all_gather";
  using Result = protocol::Done;
  int rank, layer;
};
BOOST_DESCRIBE_STRUCT(AllGather, (), (rank, layer))
struct Forward {
  static constexpr std::string_view api = "Rank::forward";
  using Result = protocol::Done;
  int rank, layer;
};
BOOST_DESCRIBE_STRUCT(Forward, (), (rank, layer))
struct Backward {
  static constexpr std::string_view api = "Rank::backward";
  using Result = protocol::Done;
  int rank, layer;
};
BOOST_DESCRIBE_STRUCT(Backward, (), (rank, layer))
struct ReduceScatter {
  static constexpr std::string_view api = "Rank::reduce_scatter";
  using Result = protocol::Done;
  int rank, layer;
};
BOOST_DESCRIBE_STRUCT(ReduceScatter, (), (rank, layer))
struct OptimizerStep {
  static constexpr std::string_view api = "Rank::optimizer_step";
  using Result = protocol::Done;
  int rank;
};
BOOST_DESCRIBE_STRUCT(OptimizerStep, (), (rank))
struct Release {
  static constexpr std::string_view api = "Rank::release";
  using Result = protocol::Now;
  int rank, layer;
};
BOOST_DESCRIBE_STRUCT(Release, (), (rank, layer))

using Operations = boost::mp11::mp_list<CopyIn, AllGather, Forward, Backward, ReduceScatter,
                                        OptimizerStep, Release>;
Operations operations_of(const auto&);

// The judge's ranges for the arguments above, in the hello's terms.
inline constexpr protocol::Range<Hello> ranges[] = {
    {"rank", "rank", 0, [](const Hello& h) { return h.ranks - 1; }},
    {"layer", "layer"},
};

}  // namespace overlap::fsdp::wire
