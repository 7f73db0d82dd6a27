// Adversarial: the kernel made to signal the judge, the owner set of the submission's output
// pipe and O_ASYNC turned on (each write would send SIGIO to the owner). Refused by the sandbox,
// which allows fcntl on the submission's own descriptors only.
#include <fcntl.h>
#include <unistd.h>

#include <overlap/pipeline.hpp>

namespace pp = overlap::pipeline;

void train(pp::Pipeline&) {
  ::fcntl(1, F_SETOWN, ::getppid());
  ::fcntl(1, F_SETFL, ::fcntl(1, F_GETFL) | O_ASYNC);
  for (;;) [[maybe_unused]] auto n = ::write(1, "x", 1);
}

OVERLAP_TRAIN(train)
