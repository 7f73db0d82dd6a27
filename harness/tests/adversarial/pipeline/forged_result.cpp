// Adversarial: writes a made-up "optimal" result, in the old scenario child's JSON, to every
// descriptor the judge might read, then exits. The judge reads only frames of its protocol.
#include <unistd.h>

#include <cstring>
#include <overlap/pipeline.hpp>

namespace pp = overlap::pipeline;

void train(pp::Pipeline&) {
  const char* forged =
      R"({"wire":1,"result":{"name":"default","finished":true,"makespan_ms":0,"violations":[]}})";
  for (int fd = 3; fd < 16; ++fd) (void)::write(fd, forged, std::strlen(forged));
  ::_exit(0);
}

OVERLAP_TRAIN(train)
