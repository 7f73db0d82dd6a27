// The fetch world's part of the protocol, shared by the judge and the submission's client: its
// operation (protocol/operation.hpp) and its hello as described structs (protocol/described.hpp),
// with the ranges the judge holds the arguments to. The judge sends no state.
#pragma once

#include <boost/describe/class.hpp>
#include <cstdint>
#include <string_view>

#include "../../protocol/described.hpp"
#include "../../protocol/frames.hpp"
#include "../../protocol/operation.hpp"

namespace overlap::fetch::wire {

struct Hello {
  int shards, links;
};
BOOST_DESCRIBE_STRUCT(Hello, (), (shards, links))

struct Fetch {
  static constexpr std::string_view api = "Source::fetch";
  using Result = protocol::Done;
  int shard;
};
BOOST_DESCRIBE_STRUCT(Fetch, (), (shard))

using Operations = boost::mp11::mp_list<Fetch>;
Operations operations_of(const auto&);

inline constexpr protocol::Range<Hello> ranges[] = {
    {"shard", "shard", 0, [](const Hello& h) { return h.shards - 1; }},
};

}  // namespace overlap::fetch::wire
