// Adversarial: the reference solution embedded by the assembler, the directive's letters written
// as escapes (\x62 is 'b') so that no text of the source, preprocessed or not, says ".incbin".
// Refused by the judge, which decodes every string literal the assembler could receive.
#include <overlap/pipeline.hpp>

asm(".pushsection .rodata\n.inc\x62in \"../../../../solutions/pipeline/train.cpp\"\n.popsection");

void train(overlap::pipeline::Pipeline&) {}

OVERLAP_TRAIN(train)
