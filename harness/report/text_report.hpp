// The terminal report: per scenario the verdict, figures, memory, violations and a Gantt chart;
// then a summary line and how long grading took in real time.
#pragma once

#include <ostream>

#include "../verdict/result.hpp"

namespace overlap::report {

void print_text(const verdict::Report& report, std::ostream& out);

// The short form (`--summary`, what `overlap watch` shows): each scenario's verdict and first
// violation, then the summary line.
void print_summary(const verdict::Report& report, std::ostream& out);

}  // namespace overlap::report
