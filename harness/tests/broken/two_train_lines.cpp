// Two registrations: which train would the grader run?
#include <overlap/pipeline.hpp>

void train(overlap::pipeline::Pipeline& pipe) { pipe.stage(0).optimizer_step(); }
void train_faster(overlap::pipeline::Pipeline& pipe) { pipe.stage(0).optimizer_step(); }

OVERLAP_TRAIN(train)
OVERLAP_TRAIN(train_faster)
