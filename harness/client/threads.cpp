#include "threads.hpp"

#include <dirent.h>
#include <fcntl.h>
#include <linux/futex.h>
#include <sys/single_threaded.h>
#include <sys/syscall.h>
#include <sys/time.h>
#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <ctime>
#include <optional>
#include <string>
#include <vector>

namespace overlap::client {

namespace {

// A file of /proc/self (a few hundred bytes), or "" when it cannot be read: its thread ended.
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

// One thread as /proc shows it: its system call (number, arguments, stack and instruction
// pointers; "running" when it runs), its state letter, and how often it has been switched out.
struct Thread {
  std::string syscall;
  char state = 'X';
  unsigned long switches = 0;
  friend bool operator==(const Thread&, const Thread&) = default;
};

Thread read_thread(const std::string& tid) {
  const std::string task = "/proc/self/task/" + tid;
  Thread t;
  const std::string status = read_proc(task + "/status");
  const std::size_t state = status.find("State:\t");
  if (state == std::string::npos) return t;  // gone: it can do nothing more
  t.state = status[state + 7];
  t.switches =
      field(status, "\nvoluntary_ctxt_switches:") + field(status, "\nnonvoluntary_ctxt_switches:");
  t.syscall = read_proc(task + "/syscall");
  return t;
}

// Blocked in a call that only another thread (train's, or one itself so blocked) or the judge
// can end: no timeout will end it, and no signal of a timer (timers are checked apart). Wait
// channels' names change with the kernel; the call and its arguments do not.
bool blocked_for_good(const Thread& t) {
  if (t.state == 'X' || t.state == 'Z' || t.state == 't' || t.state == 'T') return true;
  if (t.state != 'S') return false;  // running, runnable, or in a short uninterruptible wait
  long call = -1;
  unsigned long a[6] = {};
  if (std::sscanf(t.syscall.c_str(), "%ld %lx %lx %lx %lx %lx %lx", &call, &a[0], &a[1], &a[2],
                  &a[3], &a[4], &a[5]) != 7) {
    return false;  // not in a system call
  }
  switch (call) {
    case SYS_futex: {
      const unsigned long op = a[1] & FUTEX_CMD_MASK;
      const bool waits = op == FUTEX_WAIT || op == FUTEX_WAIT_BITSET || op == FUTEX_LOCK_PI ||
                         op == FUTEX_LOCK_PI2 || op == FUTEX_WAIT_REQUEUE_PI;
      return waits && a[3] == 0;  // no timeout
    }
    case SYS_futex_waitv:
      return a[3] == 0;
    case SYS_read:
    case SYS_readv:
    case SYS_pread64:
    case SYS_preadv:
    case SYS_pause:
    case SYS_rt_sigsuspend:
      return true;
    case SYS_poll:
      return static_cast<int>(a[2]) < 0;
    case SYS_ppoll:
    case SYS_rt_sigtimedwait:
      return a[2] == 0;
    case SYS_epoll_wait:
    case SYS_epoll_pwait:
      return static_cast<int>(a[3]) < 0;
    case SYS_select:
    case SYS_pselect6:
      return a[4] == 0;
    default:  // a sleep, a restarted timed wait (restart_syscall), a write, ...
      return false;
  }
}

// The other threads' states, or nothing when one of them may act.
std::optional<std::vector<Thread>> quiet_reading(const std::string& self) {
  DIR* tasks = ::opendir("/proc/self/task");
  if (!tasks) return std::vector<Thread>{};  // no /proc: nothing to learn, nothing to wait for
  std::vector<Thread> threads;
  bool quiet = true;
  while (const dirent* entry = ::readdir(tasks)) {
    if (entry->d_name[0] == '.' || self == entry->d_name) continue;
    threads.push_back(read_thread(entry->d_name));
    if (!blocked_for_good(threads.back())) {
      quiet = false;
      break;
    }
  }
  ::closedir(tasks);
  if (!quiet) return std::nullopt;
  return threads;
}

bool armed(long seconds, long fraction) { return seconds != 0 || fraction != 0; }

// A timer's signal could wake a thread that looks blocked for good: an interval timer, or a
// POSIX timer (/proc/self/timers lists their ids).
bool timer_armed() {
  for (const int which : {ITIMER_REAL, ITIMER_VIRTUAL, ITIMER_PROF}) {
    itimerval value{};
    if (::getitimer(which, &value) == 0 && armed(value.it_value.tv_sec, value.it_value.tv_usec)) {
      return true;
    }
  }
  const std::string timers = read_proc("/proc/self/timers");
  for (std::size_t at = timers.find("ID: "); at != std::string::npos;
       at = timers.find("ID: ", at + 4)) {
    const int id = std::atoi(timers.c_str() + at + 4);
    itimerspec value{};
    if (::syscall(SYS_timer_gettime, id, &value) == 0 &&
        armed(value.it_value.tv_sec, value.it_value.tv_nsec)) {
      return true;
    }
  }
  return false;
}

}  // namespace

bool other_threads_quiet() {
  if (__libc_single_threaded) return true;  // never a second thread: nothing to read
  const std::string self = std::to_string(::syscall(SYS_gettid));
  const auto first = quiet_reading(self);
  if (!first) return false;
  if (first->empty()) return true;  // every other thread is gone
  // Reading every thread is not atomic: one may have run between the reads. Unchanged
  // context-switch counts in a second reading show that none did.
  const auto second = quiet_reading(self);
  return second && *second == *first && !timer_armed();
}

}  // namespace overlap::client
