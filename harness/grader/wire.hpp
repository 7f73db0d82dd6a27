// How a scenario's child process hands its result to the grader: the whole ScenarioResult,
// timeline included, in a format of the grader's own (not the public report, so that the two
// can change apart).
#pragma once

#include <string>
#include <string_view>

#include "../result/result.hpp"

namespace overlap::grade {

std::string to_wire(const ScenarioResult& result);

// Reads what to_wire wrote; throws on anything else.
ScenarioResult from_wire(std::string_view text);

}  // namespace overlap::grade
