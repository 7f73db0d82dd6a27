// Takes a Stage, not the Pipeline: OVERLAP_TRAIN must refuse it at compile time, saying why.
#include <overlap/pipeline.hpp>

void train(overlap::pipeline::Stage& stage) { stage.optimizer_step(); }

OVERLAP_TRAIN(train)
