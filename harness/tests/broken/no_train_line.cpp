// A train() the grader cannot find: the OVERLAP_TRAIN line is missing.
#include <overlap/pipeline.hpp>

void train(overlap::pipeline::Pipeline& pipe) { pipe.stage(0).optimizer_step(); }
