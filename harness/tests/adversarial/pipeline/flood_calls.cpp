// Adversarial: floods the judge with well-formed calls that each make a tensor in the judge's
// memory (input(0, 0), written straight to the pipe, never waiting). The judge stops the run at
// its cap on calls, long before its memory is at risk.
#include <unistd.h>

#include <cerrno>
#include <cstdint>
#include <overlap/pipeline.hpp>
#include <string>

namespace pp = overlap::pipeline;

namespace {

void field(std::string& body, std::int64_t value) {
  body += 'i';
  body.append(reinterpret_cast<const char*>(&value), 8);
}

}  // namespace

void train(pp::Pipeline&) {
  std::string body;
  const std::uint16_t call = 16;
  body.append(reinterpret_cast<const char*>(&call), 2);
  field(body, 0);  // input
  field(body, 0);  // step
  field(body, 0);  // micro-batch
  const auto length = static_cast<std::uint32_t>(body.size());
  std::string frame(reinterpret_cast<const char*>(&length), 4);
  frame += body;
  std::string burst;
  for (int i = 0; i < 1000; ++i) burst += frame;
  // The pipe is non-blocking: keep whole frames going, however much each write takes.
  for (std::size_t at = 0;;) {
    const ssize_t n = ::write(4, burst.data() + at, burst.size() - at);
    if (n > 0) {
      at = (at + static_cast<std::size_t>(n)) % burst.size();
    } else if (errno != EAGAIN) {
      ::_exit(0);
    }
  }
}

OVERLAP_TRAIN(train)
