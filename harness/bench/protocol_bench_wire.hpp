// The protocol benchmark's part of the protocol, as a world's wire.hpp declares one: its hello
// and its one operation, described, with the judge's bound on its arguments. The benchmark so
// goes the way every world's calls go (protocol/described.hpp).
#pragma once

#include <boost/describe/class.hpp>
#include <cstdint>
#include <string_view>

#include "../protocol/described.hpp"
#include "../protocol/operation.hpp"

namespace overlap::bench {

struct Hello {
  int devices;
  std::int64_t operations_per_device;
};
BOOST_DESCRIBE_STRUCT(Hello, (), (devices, operations_per_device))

// A 1 ms operation on a device.
struct Work {
  static constexpr std::string_view api = "Bench::work";
  using Result = protocol::Done;
  int device;
};
BOOST_DESCRIBE_STRUCT(Work, (), (device))

using Operations = boost::mp11::mp_list<Work>;
Operations operations_of(const auto&);

inline constexpr protocol::Range<Hello> ranges[] = {
    {"device", "device", 0, [](const Hello& h) { return h.devices - 1; }},
};

}  // namespace overlap::bench
