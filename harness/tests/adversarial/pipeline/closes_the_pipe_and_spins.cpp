// Adversarial: closes its end of both pipes to the judge, then runs forever. The judge does not
// wait on it past the time limit, and says what happened.
#include <unistd.h>

#include <atomic>
#include <overlap/pipeline.hpp>

namespace pp = overlap::pipeline;

std::atomic<long> spins{0};

void train(pp::Pipeline&) {
  ::close(3);
  ::close(4);
  while (spins.load() >= 0) spins.fetch_add(1);
}

OVERLAP_TRAIN(train)
