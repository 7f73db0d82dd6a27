#include <overlap/pipeline.hpp>
void train(overlap::pipeline::Pipeline&) {}
OVERLAP_TRAIN(train)
