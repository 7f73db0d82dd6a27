// Adversarial: writes the judge's own protocol on its pipe ("train returned", "idle") without
// training, then exits. The judge counts work from its own state: nothing was trained.
#include <unistd.h>

#include <cstdint>
#include <cstring>
#include <overlap/pipeline.hpp>
#include <string>

namespace pp = overlap::pipeline;

namespace {

// A frame as the protocol lays it out: length, type, then tagged fields.
std::string frame(std::uint16_t type, bool with_actor) {
  std::string body(reinterpret_cast<const char*>(&type), 2);
  if (with_actor) {
    const std::int64_t actor = 0;
    body += 'i';
    body.append(reinterpret_cast<const char*>(&actor), 8);
  }
  const auto length = static_cast<std::uint32_t>(body.size());
  return std::string(reinterpret_cast<const char*>(&length), 4) + body;
}

}  // namespace

void train(pp::Pipeline&) {
  const std::string forged = frame(18, true) + frame(20, false);  // returned(0), idle
  for (int fd = 3; fd < 16; ++fd) (void)::write(fd, forged.data(), forged.size());
  ::_exit(0);
}

OVERLAP_TRAIN(train)
