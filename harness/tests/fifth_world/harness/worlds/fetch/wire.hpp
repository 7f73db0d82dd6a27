// The fetch world's part of the protocol, shared by the judge and the submission's client.
//   hello   shards, links
//   calls   fetch  shard -> completion
//   state   nothing
#pragma once

#include <cstdint>

#include "../../protocol/frames.hpp"

namespace overlap::fetch::wire {

enum Op : std::uint16_t { fetch };
inline constexpr protocol::Operation operations[] = {{"fetch", true}};

}  // namespace overlap::fetch::wire
