// Adversarial: a thread of its own asleep in poll() on a copy of the judge's descriptor, with no
// timeout. To the client it would look blocked for good, yet the judge's next frame wakes it, in
// real time: the client names the misuse instead of declaring the instant over.
#include <poll.h>
#include <unistd.h>

#include <overlap/pipeline.hpp>
#include <thread>

namespace pp = overlap::pipeline;

void train(pp::Pipeline& pipe) {
  std::thread([] {
    pollfd judge{::dup(3), POLLIN, 0};
    ::poll(&judge, 1, -1);
  }).detach();
  pipe.stage(0).forward(0, pipe.input(0, 0));
}

OVERLAP_TRAIN(train)
