// Adversarial: finds the memory it shares with the judge (/proc/self/maps), writes a position
// past the end of its ring to the judge, wakes the judge on its pipe, and waits. The judge checks
// every position it reads from shared memory: a protocol failure, never a read outside the ring.
#include <unistd.h>

#include <cstdint>
#include <cstring>
#include <fstream>
#include <overlap/pipeline.hpp>
#include <string>

namespace pp = overlap::pipeline;

void train(pp::Pipeline&) {
  std::ifstream maps("/proc/self/maps");
  for (std::string line; std::getline(maps, line);) {
    if (line.find("overlap-rings") == std::string::npos) continue;
    auto* base = reinterpret_cast<char*>(std::stoull(line, nullptr, 16));
    // The second ring's positions (program -> judge) start 128 bytes in: "bytes written".
    const std::uint64_t past_the_end = ~std::uint64_t{0};
    std::memcpy(base + 128, &past_the_end, sizeof past_the_end);
    const char wake[] = {2, 0, 0, 0, 30, 0};  // a frame of two bytes: type 30, wake
    (void)::write(4, wake, sizeof wake);
    for (;;) ::pause();
  }
}

OVERLAP_TRAIN(train)
