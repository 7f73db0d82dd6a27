#include "threads.hpp"

#include <dirent.h>
#include <fcntl.h>
#include <linux/futex.h>
#include <poll.h>
#include <sys/select.h>
#include <sys/single_threaded.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <algorithm>
#include <array>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

namespace overlap::client {

namespace {

// A file of /proc (a few hundred bytes), or "" when it cannot be read: its thread ended.
std::string read_proc(const std::string& path) {
  const int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0) return "";
  char buffer[4096];
  const ssize_t n = ::read(fd, buffer, sizeof buffer - 1);
  ::close(fd);
  return n > 0 ? std::string(buffer, static_cast<std::size_t>(n)) : "";
}

unsigned long field(const std::string& status, const char* name) {
  const std::size_t at = status.find(name);
  return at == std::string::npos
             ? 0
             : std::strtoul(status.c_str() + at + std::strlen(name), nullptr, 10);
}

struct File {
  dev_t device;
  ino_t inode;
  friend bool operator==(const File&, const File&) = default;
};

File file_of(int fd) {
  struct stat s {};
  if (::fstat(fd, &s) != 0) return {};
  return {s.st_dev, s.st_ino};
}

// The process's threads as the kernel counts them: /proc/self/task has a link for each, and two
// of its own. One fstat, after every handler (a tenth of reading /proc/self/stat): the folder
// stays open, and is opened again when the descriptor no longer names it (the submission closed
// it, or put another file there). 0 when it cannot be read.
int threads_alive() {
  static int fd = -1;
  static File opened{};
  struct stat s {};
  if (fd < 0 || ::fstat(fd, &s) != 0 || File{s.st_dev, s.st_ino} != opened) {
    fd = ::open("/proc/self/task", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    if (fd < 0 || ::fstat(fd, &s) != 0) return 0;
    opened = {s.st_dev, s.st_ino};
  }
  return static_cast<int>(s.st_nlink) - 2;
}

std::array<File, 4> g_judge_files{};
std::size_t g_judge_file_count = 0;

// Whether descriptor `fd` of thread `tid` (its own table: a raw clone may have one) is a file the
// judge can make ready.
bool judges(const std::string& tid, long fd) {
  if (fd < 0) return false;
  struct stat s {};
  const std::string link = "/proc/self/task/" + tid + "/fd/" + std::to_string(fd);
  if (::stat(link.c_str(), &s) != 0) return false;  // the link leads to the file itself
  const File file{s.st_dev, s.st_ino};
  return std::find(g_judge_files.begin(), g_judge_files.begin() + g_judge_file_count, file) !=
         g_judge_files.begin() + g_judge_file_count;
}

// `bytes` of this process's memory at `address`, read through /proc so that an address another
// thread unmapped is a failed read, not a crash of the client.
std::vector<char> read_memory(unsigned long address, std::size_t bytes) {
  std::vector<char> data(bytes);
  const int fd = ::open("/proc/self/mem", O_RDONLY | O_CLOEXEC);
  if (fd < 0) return {};
  const ssize_t n = ::pread(fd, data.data(), bytes, static_cast<off_t>(address));
  ::close(fd);
  if (n != static_cast<ssize_t>(bytes)) return {};
  return data;
}

// Whether a poll on `count` entries at `address` includes a judge's descriptor.
bool polls_the_judge(const std::string& tid, unsigned long address, unsigned long count) {
  count = std::min(count, 1024UL);
  const std::vector<char> data = read_memory(address, count * sizeof(pollfd));
  for (std::size_t i = 0; i + sizeof(pollfd) <= data.size(); i += sizeof(pollfd)) {
    pollfd entry;
    std::memcpy(&entry, data.data() + i, sizeof entry);
    if (judges(tid, entry.fd)) return true;
  }
  return false;
}

// Whether a select on descriptors below `count` with these sets includes a judge's descriptor.
bool selects_the_judge(const std::string& tid, unsigned long count, const unsigned long* sets) {
  count = std::min<unsigned long>(count, FD_SETSIZE);
  for (int set = 0; set < 3; ++set) {
    if (sets[set] == 0) continue;
    const std::vector<char> data = read_memory(sets[set], sizeof(fd_set));
    if (data.empty()) continue;
    fd_set bits;
    std::memcpy(&bits, data.data(), sizeof bits);
    for (unsigned long fd = 0; fd < count; ++fd) {
      if (FD_ISSET(static_cast<int>(fd), &bits) && judges(tid, static_cast<long>(fd))) return true;
    }
  }
  return false;
}

// One thread as /proc shows it: its system call (number, arguments, stack and instruction
// pointers; "running" when it runs), its state letter, and how often it has been switched out.
struct Thread {
  std::string tid;
  std::string syscall;
  char state = 'X';
  unsigned long switches = 0;
  friend bool operator==(const Thread&, const Thread&) = default;
};

Thread read_thread(const std::string& tid) {
  const std::string task = "/proc/self/task/" + tid;
  Thread t;
  t.tid = tid;
  const std::string status = read_proc(task + "/status");
  const std::size_t state = status.find("State:\t");
  if (state == std::string::npos) return t;  // gone: it can do nothing more
  t.state = status[state + 7];
  t.switches =
      field(status, "\nvoluntary_ctxt_switches:") + field(status, "\nnonvoluntary_ctxt_switches:");
  t.syscall = read_proc(task + "/syscall");
  return t;
}

enum class Wait { acting, for_good, on_judge };

// Blocked in a call that only another thread (train's, or one itself so blocked) or the judge
// can end: no timeout will end it. Wait channels' names change with the kernel; the call and its
// arguments do not. A signal (an interval timer's) may interrupt such a wait for a moment: the
// thread then runs its handler, which the next reading sees.
Wait wait_of(const Thread& t) {
  if (t.state == 'X' || t.state == 'Z' || t.state == 't' || t.state == 'T') return Wait::for_good;
  if (t.state != 'S') return Wait::acting;  // running, runnable, or a short uninterruptible wait
  long call = -1;
  unsigned long a[6] = {};
  if (std::sscanf(t.syscall.c_str(), "%ld %lx %lx %lx %lx %lx %lx", &call, &a[0], &a[1], &a[2],
                  &a[3], &a[4], &a[5]) != 7) {
    return Wait::acting;  // not in a system call
  }
  const auto unless_on_judge = [](bool on_judge) {
    return on_judge ? Wait::on_judge : Wait::for_good;
  };
  switch (call) {
    case SYS_futex: {
      const unsigned long op = a[1] & FUTEX_CMD_MASK;
      const bool waits = op == FUTEX_WAIT || op == FUTEX_WAIT_BITSET || op == FUTEX_LOCK_PI ||
                         op == FUTEX_LOCK_PI2 || op == FUTEX_WAIT_REQUEUE_PI;
      return waits && a[3] == 0 ? Wait::for_good : Wait::acting;  // no timeout
    }
    case SYS_futex_waitv:
      return a[3] == 0 ? Wait::for_good : Wait::acting;
    case SYS_read:
    case SYS_readv:
    case SYS_pread64:
    case SYS_preadv:
      return unless_on_judge(judges(t.tid, static_cast<long>(a[0])));
    case SYS_pause:
    case SYS_rt_sigsuspend:
      return Wait::for_good;
    case SYS_poll:
      if (static_cast<int>(a[2]) >= 0) return Wait::acting;
      return unless_on_judge(polls_the_judge(t.tid, a[0], a[1]));
    case SYS_ppoll:
      if (a[2] != 0) return Wait::acting;
      return unless_on_judge(polls_the_judge(t.tid, a[0], a[1]));
    case SYS_rt_sigtimedwait:
      return a[2] == 0 ? Wait::for_good : Wait::acting;
    case SYS_select:
    case SYS_pselect6:
      if (a[4] != 0) return Wait::acting;
      return unless_on_judge(selects_the_judge(t.tid, a[0], &a[1]));
    default:  // a sleep, a restarted timed wait (restart_syscall), a write, ...
      return Wait::acting;
  }
}

// The other threads' states, or why they are not quiet.
OtherThreads quiet_reading(const std::string& self, std::vector<Thread>& threads) {
  threads.clear();
  DIR* tasks = ::opendir("/proc/self/task");
  if (!tasks) return {OtherThreads::busy};  // cannot tell: wait, the judge's deadline holds
  OtherThreads reading;
  int started = 0;
  while (const dirent* entry = ::readdir(tasks)) {
    if (entry->d_name[0] == '.' || self == entry->d_name) continue;
    ++started;  // the kernel lists a process's threads in the order they started
    threads.push_back(read_thread(entry->d_name));
    const Wait wait = wait_of(threads.back());
    if (wait == Wait::on_judge) reading = {OtherThreads::waits_on_judge, started};
    if (wait == Wait::acting) {
      reading = {OtherThreads::busy};
      break;
    }
  }
  ::closedir(tasks);
  return reading;
}

}  // namespace

void note_judge_descriptors(std::initializer_list<int> fds) {
  for (const int fd : fds) {
    if (g_judge_file_count < g_judge_files.size())
      g_judge_files[g_judge_file_count++] = file_of(fd);
  }
}

OtherThreads read_other_threads() {
  const int alive = threads_alive();
  if (alive == 1) return {};
  // The C library's single-thread flag is the submission's to write: told 1 with threads alive,
  // malloc and stdio would take no locks. With more than one thread, it is 0 again.
  if (alive > 1 && __libc_single_threaded) __libc_single_threaded = 0;
  const std::string self = std::to_string(::syscall(SYS_gettid));
  std::vector<Thread> first, second;
  const OtherThreads reading = quiet_reading(self, first);
  if (reading.kind != OtherThreads::quiet) return reading;
  // Reading every thread is not atomic: one may have run between the reads. Unchanged
  // context-switch counts in a second reading show that none did.
  if (quiet_reading(self, second).kind == OtherThreads::quiet && second == first) return reading;
  return {OtherThreads::busy};
}

}  // namespace overlap::client
