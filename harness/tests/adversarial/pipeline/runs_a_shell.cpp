// Adversarial: a shell run in place of the submission. Refused at the exec.
#include <unistd.h>

#include <overlap/pipeline.hpp>

namespace pp = overlap::pipeline;

void train(pp::Pipeline&) {
  ::execl("/bin/sh", "sh", "-c", "echo pipeline: OPTIMAL", static_cast<char*>(nullptr));
}

OVERLAP_TRAIN(train)
