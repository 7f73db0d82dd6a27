// The HTML report (--html): one self-contained page (inline CSS, SVG and script; it fetches
// nothing) with the verdicts and, per scenario, a timeline of every operation with the bound and
// the best known makespan on its time axis, the violations linked to their moments on it, peak
// memory and what the submission printed. Same report, same bytes: no real time on the page.
#pragma once

#include <string>
#include <string_view>

#include "../verdict/result.hpp"

namespace overlap::report {

std::string html_page(const verdict::Report& report);

// Text made safe for HTML content and attribute values: & < > " ' as character references.
std::string html_escape(std::string_view text);

}  // namespace overlap::report
