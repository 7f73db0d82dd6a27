// The fetch world's part of the protocol, shared by the judge and the submission's client: its
// operation, its hello and its call's arguments as described structs (protocol/described.hpp),
// with the ranges the judge holds the arguments to. The judge sends no state.
#pragma once

#include <boost/describe/class.hpp>
#include <cstdint>

#include "../../protocol/described.hpp"
#include "../../protocol/frames.hpp"

namespace overlap::fetch::wire {

enum Op : std::uint16_t { fetch };
inline constexpr protocol::Operation operations[] = {{"fetch", true}};

struct Hello {
  int shards, links;
};
BOOST_DESCRIBE_STRUCT(Hello, (), (shards, links))

struct Fetch {
  int shard;
};
BOOST_DESCRIBE_STRUCT(Fetch, (), (shard))

inline constexpr protocol::Range<Hello> ranges[] = {
    {"shard", "shard", 0, [](const Hello& h) { return h.shards - 1; }},
};

}  // namespace overlap::fetch::wire
