// Adversarial: the reference solution embedded into the program by the assembler, the directive
// split into string pieces so that no line of the source says ".incbin". Refused before grading.
#include <overlap/pipeline.hpp>

#define PIECE(a, b) a b
asm(PIECE(".inc", "bin \"../../../../solutions/pipeline/train.cpp\""));

void train(overlap::pipeline::Pipeline&) {}

OVERLAP_TRAIN(train)
