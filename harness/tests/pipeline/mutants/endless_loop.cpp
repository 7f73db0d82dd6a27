// Mutant: spins without ever waiting on an operation, so virtual time never moves (the grader
// stops it after its real-time limit).
#include <atomic>
#include <overlap/pipeline.hpp>

namespace pp = overlap::pipeline;

std::atomic<long> spins{0};

void train(pp::Pipeline& pipe) {
  pipe.stage(0).forward(0, pipe.input(0, 0));
  while (spins.load() >= 0) spins.fetch_add(1);
}

OVERLAP_TRAIN(train)
