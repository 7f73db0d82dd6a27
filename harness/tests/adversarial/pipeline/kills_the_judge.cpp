// Adversarial: SIGKILL to the judge, its parent. Refused: the judge reports the attempt.
#include <signal.h>
#include <unistd.h>

#include <overlap/pipeline.hpp>

namespace pp = overlap::pipeline;

void train(pp::Pipeline&) { ::kill(::getppid(), SIGKILL); }

OVERLAP_TRAIN(train)
