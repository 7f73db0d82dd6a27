// Chrome Trace Event format (opens in Perfetto and chrome://tracing): one process per scenario,
// one track per device, one complete event per operation.
#pragma once

#include <boost/json/value.hpp>

#include "../verdict/result.hpp"

namespace overlap::report {

boost::json::value trace_json(const verdict::Report& report);

}  // namespace overlap::report
