// Adversarial: a compiled reference solution of the kit's own tests (REFERENCE, its path), loaded
// with dlopen and its train run in the submission's place, which would grade it optimal. In the
// sandbox the kit's build folder is not there; the submission says so by throwing.
#include <dlfcn.h>

#include <overlap/pipeline.hpp>
#include <stdexcept>
#include <string>

namespace pp = overlap::pipeline;

void train(pp::Pipeline& pipeline) {
  void* reference = ::dlopen(REFERENCE, RTLD_NOW | RTLD_LOCAL);
  if (!reference) throw std::runtime_error("no reference to load");
  using Train = void (*)(pp::Pipeline&);
  auto its_train =
      reinterpret_cast<Train>(::dlsym(reference, "_Z5trainRN7overlap8pipeline8PipelineE"));
  if (!its_train) throw std::runtime_error("a reference without train");
  its_train(pipeline);
}

OVERLAP_TRAIN(train)
