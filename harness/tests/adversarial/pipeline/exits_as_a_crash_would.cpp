// Adversarial: exit status 139, what a shell (or a sandbox that reports its child's death as an
// exit) shows for a crash by SIGSEGV, then SIGTERM sent to itself. Each is what it is: an exit
// with that status and a death by that signal, never one taken for the other.
#include <signal.h>
#include <unistd.h>

#include <overlap/pipeline.hpp>

namespace pp = overlap::pipeline;

void train(pp::Pipeline& pipeline) {
  if (pipeline.num_stages() == 2) ::_exit(139);  // two-stage
  ::raise(SIGTERM);
}

OVERLAP_TRAIN(train)
