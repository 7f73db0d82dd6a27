// A thread per stage, each running its stage's calls under a mutex that keeps the schedule
// serial: looks like a correct (slow) run, but the cluster may be called only from the thread
// that runs train(). The first call from a stage thread is refused (a misuse), and the thread
// dies of the exception.
#include <mutex>
#include <overlap/pipeline.hpp>
#include <thread>
#include <vector>

namespace pp = overlap::pipeline;

void train(pp::Pipeline& pipe) {
  std::mutex turn;
  pp::Tensor carried;
  std::vector<std::thread> threads;
  for (int s = 0; s < pipe.num_stages(); ++s) {
    threads.emplace_back([&, s] {
      const std::lock_guard lock(turn);
      if (s == 0) carried = pipe.input(0, 0);
      carried = pipe.stage(s).forward(0, carried);
    });
    threads.back().join();  // one stage at a time: no data race, and nothing overlaps
  }
}

OVERLAP_TRAIN(train)
