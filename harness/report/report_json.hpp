// The versioned JSON report (--json): the grade result without timelines, whole numbers written
// as integers. Same submission, same scenarios: the same bytes.
#pragma once

#include <boost/json/value.hpp>

#include "../verdict/result.hpp"

namespace overlap::report {

// 2: the seed of the generated scenarios, each scenario's parameters and the paths it took.
// 3: `optimum_ms` and `optimum_note` renamed `best_known_ms` and `best_known_note`.
// 4: `hindsight_ms` and `hindsight_note`, a figure below the best known that needs what a program
//    is not told.
inline constexpr int kSchemaVersion = 4;

boost::json::value to_json(const verdict::Report& report);

}  // namespace overlap::report
