// Adversarial: defines write() (the linker takes the submission's symbol over libc's for the
// whole program) to swallow everything, and the grader's own verdict functions. Only the
// submission's own program is affected: its calls never reach the judge, which times out.
#include <sys/types.h>

#include <cstddef>
#include <overlap/pipeline.hpp>

namespace pp = overlap::pipeline;

extern "C" ssize_t write(int, const void*, std::size_t count) {
  return static_cast<ssize_t>(count);
}

namespace overlap::verdict {
int exit_code(int) { return 0; }
int overall(int) { return 4; }  // "optimal"
}  // namespace overlap::verdict

void train(pp::Pipeline& pipe) {
  pp::Tensor x = pipe.input(0, 0);
  pipe.stage(0).forward(0, x);
}

OVERLAP_TRAIN(train)
