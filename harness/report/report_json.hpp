// The versioned JSON report (--json): the grade result without timelines, whole numbers written
// as integers. Same submission, same scenarios: the same bytes.
#pragma once

#include <boost/json/value.hpp>

#include "../result/result.hpp"

namespace overlap::report {

// 2: the seed of the generated scenarios, each scenario's parameters and the paths it took.
inline constexpr int kSchemaVersion = 2;

boost::json::value to_json(const grade::Report& report);

}  // namespace overlap::report
