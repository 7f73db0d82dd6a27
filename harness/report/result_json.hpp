// The JSON form of a grade result. The versioned report (--json) is this without timelines; the
// grader's child processes send their result to the parent with timelines.
#pragma once

#include <boost/json/value.hpp>

#include "../grader/result.hpp"

namespace overlap::report {

enum class Detail { summary, with_timeline };

boost::json::value to_json(const grade::ScenarioResult& result, Detail detail);
boost::json::value to_json(const grade::Report& report);

// Reads what to_json(result, with_timeline) wrote; throws on anything else.
grade::ScenarioResult result_from_json(const boost::json::value& json);

}  // namespace overlap::report
