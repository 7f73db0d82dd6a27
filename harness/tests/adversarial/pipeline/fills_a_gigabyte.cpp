// Adversarial: a gigabyte of zeros in the object, written by the assembler during the build (a
// disk filled before grading). The build's output is capped: a build error that says so.
#include <overlap/pipeline.hpp>

asm(".pushsection .data\n.fill 1073741824, 1, 0\n.popsection");

void train(overlap::pipeline::Pipeline&) {}

OVERLAP_TRAIN(train)
