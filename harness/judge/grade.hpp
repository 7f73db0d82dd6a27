// The judge's main: the request checked (request.hpp), the submission built (build.hpp), one run
// of its program per scenario, the reports written; the exit code.
//   exit 0  every scenario pass or optimal
//   exit 1  some scenario fail or slow
//   exit 2  usage error (unknown exercise, option or scenario)
//   exit 3  the submission did not build, or includes what it may not (--submission)
//   exit 4  grader error: the judge itself failed (never the submission's doing)
#pragma once

namespace overlap::judge {

int main(int argc, char** argv);

}  // namespace overlap::judge
