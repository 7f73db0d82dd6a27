// Adversarial, with holds_a_secret.cpp graded at the same time: every process this one can see
// that is not its own ancestor, and what of its memory it can read (/proc/PID/mem, as a
// process of the same user may), searched for the other grade's secret. In the sandbox's pid
// namespace there is no such process. It says what it saw by throwing.
#include <dirent.h>
#include <fcntl.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <fstream>
#include <overlap/pipeline.hpp>
#include <set>
#include <sstream>
#include <stdexcept>
#include <string>
#include <thread>
#include <vector>

namespace pp = overlap::pipeline;

namespace {

std::string field(const std::string& pid, const std::string& name) {
  std::ifstream status("/proc/" + pid + "/status");
  for (std::string line; std::getline(status, line);) {
    if (line.starts_with(name + ":")) return line.substr(name.size() + 1);
  }
  return "";
}

std::set<std::string> ancestors() {
  std::set<std::string> chain;
  for (std::string pid = std::to_string(::getpid()); !pid.empty() && pid != "0";) {
    chain.insert(pid);
    const std::string parent = field(pid, "PPid");
    pid = parent.substr(parent.find_first_not_of(" \t") == std::string::npos
                            ? parent.size()
                            : parent.find_first_not_of(" \t"));
  }
  return chain;
}

// Whether the readable memory of `pid` holds `secret`.
bool memory_holds(const std::string& pid, const std::string& secret) {
  const int mem = ::open(("/proc/" + pid + "/mem").c_str(), O_RDONLY);
  if (mem < 0) return false;
  std::ifstream maps("/proc/" + pid + "/maps");
  bool found = false;
  for (std::string line; !found && std::getline(maps, line);) {
    unsigned long from = 0, to = 0;
    char perms[5] = {};
    if (std::sscanf(line.c_str(), "%lx-%lx %4s", &from, &to, perms) != 3 || perms[0] != 'r')
      continue;
    std::vector<char> bytes(std::min(to - from, 64UL << 20));
    const ssize_t n = ::pread(mem, bytes.data(), bytes.size(), static_cast<off_t>(from));
    found = n > 0 && std::search(bytes.begin(), bytes.begin() + n, secret.begin(), secret.end()) !=
                         bytes.begin() + n;
  }
  ::close(mem);
  return found;
}

}  // namespace

void train(pp::Pipeline&) {
  std::this_thread::sleep_for(std::chrono::milliseconds(300));  // the other grade is running
  std::string secret = "terces-edarg-rehto";                    // built here, not in this binary
  std::reverse(secret.begin(), secret.end());
  const std::set<std::string> own = ancestors();
  int seen = 0;
  std::string read;
  DIR* proc = ::opendir("/proc");
  while (const dirent* entry = proc ? ::readdir(proc) : nullptr) {
    const std::string pid = entry->d_name;
    if (pid.find_first_not_of("0123456789") != std::string::npos || own.contains(pid)) continue;
    ++seen;
    if (memory_holds(pid, secret)) read += " " + pid;
  }
  if (proc) ::closedir(proc);
  throw std::runtime_error(read.empty() ? "saw " + std::to_string(seen) + " other processes"
                                        : "read the other grade's secret in process" + read);
}

OVERLAP_TRAIN(train)
