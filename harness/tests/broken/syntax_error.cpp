// clang-format off
// A typo: the build fails, and the grader says so with exit code 3.
#include <overlap/pipeline.hpp>

void train(overlap::pipeline::Pipeline& pipe) { pipe.stage(0).optimizer_step() }

OVERLAP_TRAIN(train)
