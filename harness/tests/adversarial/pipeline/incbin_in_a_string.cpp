// Not an attack: a string that says ".incbin", outside any asm, is C++ like any other. The
// admission reads the compiler's parse, not the text, so this grades as the starter does.
#include <iostream>
#include <overlap/pipeline.hpp>

namespace pp = overlap::pipeline;

void train(pp::Pipeline& pipe) {
  std::cout << ".incbin \"/etc/passwd\"; asm(\".incbin\")\n";
  for (int step = 0; step < pipe.steps(); ++step) {
    for (int mb = 0; mb < pipe.micro_batches(); ++mb) {
      pp::Tensor x = pipe.input(step, mb);
      for (int s = 0; s < pipe.num_stages(); ++s) x = pipe.stage(s).forward(mb, x);
      pp::Tensor g = pipe.loss_gradient(step, mb, x);
      for (int s = pipe.num_stages() - 1; s >= 0; --s) g = pipe.stage(s).backward(mb, g);
    }
    for (int s = 0; s < pipe.num_stages(); ++s) pipe.stage(s).optimizer_step();
  }
}

OVERLAP_TRAIN(train)
