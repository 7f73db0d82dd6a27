// Adversarial: a file written beside the launcher, in the kit's build folder (a replacement
// judge, in the attack this stands for). Refused at the open.
#include <limits.h>
#include <unistd.h>

#include <fstream>
#include <overlap/pipeline.hpp>
#include <string>

namespace pp = overlap::pipeline;

void train(pp::Pipeline&) {
  char self[PATH_MAX] = {};
  const ssize_t n = ::readlink("/proc/self/exe", self, sizeof self - 1);
  std::string folder(self, n > 0 ? static_cast<std::size_t>(n) : 0);
  folder = folder.substr(0, folder.rfind('/') + 1);
  std::ofstream(folder + "overlap-judge-replaced") << "#!/bin/sh\necho OPTIMAL\n";
}

OVERLAP_TRAIN(train)
