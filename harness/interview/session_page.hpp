// A session as one self-contained page (./overlap session <exercise> --html FILE): the tier over
// time with the hints on the same axis, the progression, each graded version of the file as a
// diff against the one before, and the last grade's full report. Inline CSS and SVG; it fetches
// nothing and runs no script.
#pragma once

#include <string>
#include <vector>

#include "session.hpp"

namespace overlap::interview {

std::string session_page(const std::string& exercise, const std::string& session_name,
                         const std::vector<Event>& events);

// A line diff of two texts, for the page: each line of `after` or `before` once, in order, with
// ' ' (kept), '-' (removed) or '+' (added).
std::vector<std::pair<char, std::string>> line_diff(const std::string& before,
                                                    const std::string& after);

}  // namespace overlap::interview
