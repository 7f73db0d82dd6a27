// Adversarial (and correct): the starter under a timer signal every 20 microseconds, whose
// handler does nothing and does not ask for restarts. The pipes' reads and writes are retried
// on EINTR: the run is graded as the starter is.
#include <signal.h>
#include <sys/time.h>

#include <overlap/pipeline.hpp>

namespace pp = overlap::pipeline;

void train(pp::Pipeline& pipe) {
  struct sigaction action = {};
  action.sa_handler = [](int) {};
  ::sigaction(SIGALRM, &action, nullptr);  // no SA_RESTART
  const itimerval every_20us{{0, 20}, {0, 20}};
  ::setitimer(ITIMER_REAL, &every_20us, nullptr);
  for (int step = 0; step < pipe.steps(); ++step) {
    for (int mb = 0; mb < pipe.micro_batches(); ++mb) {
      pp::Tensor x = pipe.input(step, mb);
      for (int s = 0; s < pipe.num_stages(); ++s) x = pipe.stage(s).forward(mb, x);
      pp::Tensor g = pipe.loss_gradient(step, mb, x);
      for (int s = pipe.num_stages() - 1; s >= 0; --s) g = pipe.stage(s).backward(mb, g);
    }
    for (int s = 0; s < pipe.num_stages(); ++s) pipe.stage(s).optimizer_step();
  }
}

OVERLAP_TRAIN(train)
