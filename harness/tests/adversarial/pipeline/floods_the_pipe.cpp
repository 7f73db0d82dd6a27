// Adversarial: writes without end into the pipe to the judge, hoping to exhaust its memory. The
// judge caps every message and every run: a protocol failure at the first oversized frame.
#include <unistd.h>

#include <overlap/pipeline.hpp>
#include <string>

namespace pp = overlap::pipeline;

void train(pp::Pipeline&) {
  const std::string junk(1 << 16, '\x7f');
  for (;;) {
    if (::write(4, junk.data(), junk.size()) < 0) return;
  }
}

OVERLAP_TRAIN(train)
