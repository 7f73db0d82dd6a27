#include "threads.hpp"

#include <dirent.h>
#include <fcntl.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <chrono>
#include <cstdlib>
#include <cstring>
#include <string>
#include <thread>

namespace overlap::client {

namespace {

// Whether thread `tid` of this process is running or runnable: the state letter of
// /proc/self/task/<tid>/stat, after the command name's closing parenthesis.
bool runs(const char* tid) {
  const std::string path = std::string("/proc/self/task/") + tid + "/stat";
  const int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0) return false;  // it ended
  char stat[512];
  const ssize_t n = ::read(fd, stat, sizeof stat - 1);
  ::close(fd);
  if (n <= 0) return false;
  stat[n] = '\0';
  const char* paren = std::strrchr(stat, ')');
  return paren && paren[1] == ' ' && paren[2] == 'R';
}

bool another_thread_runs() {
  DIR* tasks = ::opendir("/proc/self/task");
  if (!tasks) return false;  // no /proc: nothing to learn, nothing to wait for
  const std::string self = std::to_string(::syscall(SYS_gettid));
  bool found = false;
  while (const dirent* entry = ::readdir(tasks)) {
    if (entry->d_name[0] == '.' || self == entry->d_name) continue;
    if (runs(entry->d_name)) {
      found = true;
      break;
    }
  }
  ::closedir(tasks);
  return found;
}

}  // namespace

void wait_until_other_threads_block() {
  while (another_thread_runs()) std::this_thread::sleep_for(std::chrono::milliseconds(1));
}

}  // namespace overlap::client
