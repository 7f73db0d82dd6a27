#include "filter.hpp"

#include <fcntl.h>
#include <linux/filter.h>
#include <linux/sched.h>
#include <seccomp.h>
#include <signal.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <termios.h>
#include <unistd.h>

#include <cerrno>
#include <cstdint>
#include <initializer_list>
#include <memory>
#include <stdexcept>
#include <string>
#include <system_error>
#include <vector>

namespace overlap::sandbox {

namespace {

// Async-signal-safe: the refused call's number to the judge, then the whole process ends.
void on_refused(int, siginfo_t* info, void*) {
  const std::int32_t call = info->si_syscall;
  [[maybe_unused]] const auto written = ::write(kRefusalFd, &call, sizeof call);
  ::syscall(SYS_exit_group, 128 + SIGSYS);
}

// One condition on argument `index`: for SCMP_CMP_MASKED_EQ, `a` is the mask and `b` the value.
scmp_arg_cmp arg(unsigned index, scmp_compare op, scmp_datum_t a, scmp_datum_t b = 0) {
  return {index, op, a, b};
}

struct Filter {
  scmp_filter_ctx ctx;
  explicit Filter(std::uint32_t default_action) : ctx(::seccomp_init(default_action)) {
    if (!ctx) throw std::runtime_error("seccomp_init failed");
  }
  ~Filter() { ::seccomp_release(ctx); }

  void allow(std::initializer_list<int> calls) {
    for (const int call : calls) add(SCMP_ACT_ALLOW, call, {});
  }
  void add(std::uint32_t action, int call, std::initializer_list<scmp_arg_cmp> args) {
    const int rc = ::seccomp_rule_add_array(ctx, action, call, static_cast<unsigned>(args.size()),
                                            args.size() ? std::data(args) : nullptr);
    if (rc != 0) {
      throw std::runtime_error("seccomp rule for system call " + std::to_string(call) + ": " +
                               std::to_string(rc));
    }
  }
};

// The filter's program, as libseccomp compiles it (to be loaded with flags libseccomp 2.5 cannot
// ask for).
std::vector<sock_filter> compiled(const Filter& f) {
  const int file = ::memfd_create("overlap-filter", MFD_CLOEXEC);
  if (file < 0) throw std::system_error(errno, std::generic_category(), "memfd_create");
  std::vector<sock_filter> program;
  const int rc = ::seccomp_export_bpf(f.ctx, file);
  const off_t size = ::lseek(file, 0, SEEK_END);
  if (rc == 0 && size > 0 && size % sizeof(sock_filter) == 0) {
    program.resize(static_cast<std::size_t>(size) / sizeof(sock_filter));
    if (::pread(file, program.data(), static_cast<std::size_t>(size), 0) != size) program.clear();
  }
  ::close(file);
  if (program.empty()) throw std::runtime_error("seccomp_export_bpf: " + std::to_string(rc));
  return program;
}

}  // namespace

int install_thread_watch() {
  Filter f(SCMP_ACT_ALLOW);
  f.add(SCMP_ACT_NOTIFY, SCMP_SYS(clone), {arg(0, SCMP_CMP_MASKED_EQ, CLONE_THREAD, CLONE_THREAD)});
  f.add(SCMP_ACT_NOTIFY, SCMP_SYS(exit), {});
  // As the filter below: clone3 cannot be filtered by flags, and glibc falls back to clone. Here
  // too, so that no thread escapes the count even before that filter is in force.
  f.add(SCMP_ACT_ERRNO(ENOSYS), SCMP_SYS(clone3), {});
  std::vector<sock_filter> program = compiled(f);
  const sock_fprog loaded{static_cast<unsigned short>(program.size()), program.data()};
  if (::prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) != 0) {
    throw std::system_error(errno, std::generic_category(), "prctl(PR_SET_NO_NEW_PRIVS)");
  }
  // Once the host has read a notification, only a fatal signal ends the wait: without it, a
  // signal at the moment of the answer drops the answer and the call is notified again, so that
  // one thread would be counted twice (kernels before 5.19 lack it, and keep that race).
  int listener = static_cast<int>(::syscall(
      SYS_seccomp, SECCOMP_SET_MODE_FILTER,
      SECCOMP_FILTER_FLAG_NEW_LISTENER | SECCOMP_FILTER_FLAG_WAIT_KILLABLE_RECV, &loaded));
  if (listener < 0 && errno == EINVAL) {
    listener = static_cast<int>(
        ::syscall(SYS_seccomp, SECCOMP_SET_MODE_FILTER, SECCOMP_FILTER_FLAG_NEW_LISTENER, &loaded));
  }
  if (listener < 0) throw std::system_error(errno, std::generic_category(), "seccomp (threads)");
  return listener;
}

void install_filter() {
  struct sigaction action {};
  action.sa_sigaction = on_refused;
  action.sa_flags = SA_SIGINFO;
  sigemptyset(&action.sa_mask);
  if (::sigaction(SIGSYS, &action, nullptr) != 0) throw std::runtime_error("sigaction(SIGSYS)");

  Filter f(SCMP_ACT_TRAP);
  // Memory, threads and their synchronisation.
  f.allow({SCMP_SYS(brk),
           SCMP_SYS(mmap),
           SCMP_SYS(munmap),
           SCMP_SYS(mprotect),
           SCMP_SYS(mremap),
           SCMP_SYS(madvise),
           SCMP_SYS(futex),
           SCMP_SYS(futex_waitv),
           SCMP_SYS(set_robust_list),
           SCMP_SYS(get_robust_list),
           SCMP_SYS(rseq),
           SCMP_SYS(set_tid_address),
           SCMP_SYS(arch_prctl),
           SCMP_SYS(membarrier),
           SCMP_SYS(sched_yield),
           SCMP_SYS(sched_getaffinity),
           SCMP_SYS(sched_getparam),
           SCMP_SYS(sched_getscheduler),
           SCMP_SYS(sched_get_priority_max),
           SCMP_SYS(sched_get_priority_min),
           SCMP_SYS(getrandom),
           SCMP_SYS(exit),
           SCMP_SYS(exit_group),
           SCMP_SYS(restart_syscall)});
  // A thread, never a process; clone3 cannot be filtered by flags: glibc falls back to clone.
  f.add(SCMP_ACT_ALLOW, SCMP_SYS(clone), {arg(0, SCMP_CMP_MASKED_EQ, CLONE_THREAD, CLONE_THREAD)});
  f.add(SCMP_ACT_ERRNO(ENOSYS), SCMP_SYS(clone3), {});
  // Signals within the process; the SIGSYS handler stays the launcher's.
  f.allow({SCMP_SYS(rt_sigprocmask), SCMP_SYS(rt_sigreturn), SCMP_SYS(sigaltstack),
           SCMP_SYS(rt_sigsuspend), SCMP_SYS(rt_sigtimedwait), SCMP_SYS(pause)});
  f.add(SCMP_ACT_ALLOW, SCMP_SYS(rt_sigaction), {arg(0, SCMP_CMP_NE, SIGSYS)});
  const auto self = static_cast<scmp_datum_t>(::getpid());
  f.add(SCMP_ACT_ALLOW, SCMP_SYS(tgkill), {arg(0, SCMP_CMP_EQ, self)});  // raise, abort
  f.add(SCMP_ACT_ALLOW, SCMP_SYS(kill), {arg(0, SCMP_CMP_EQ, self)});
  // Timers that signal the process itself (a signal handler is the program's own business).
  f.allow({SCMP_SYS(setitimer), SCMP_SYS(getitimer), SCMP_SYS(alarm), SCMP_SYS(timer_create),
           SCMP_SYS(timer_settime), SCMP_SYS(timer_gettime), SCMP_SYS(timer_getoverrun),
           SCMP_SYS(timer_delete)});
  // Clocks and real-time waits (they cost real time, nothing else).
  f.allow({SCMP_SYS(clock_gettime), SCMP_SYS(clock_getres), SCMP_SYS(gettimeofday), SCMP_SYS(time),
           SCMP_SYS(nanosleep), SCMP_SYS(clock_nanosleep), SCMP_SYS(poll), SCMP_SYS(ppoll)});
  // Descriptors it holds: the judge's pipes, stdout and stderr (pipes too), files it reads.
  f.allow({SCMP_SYS(read),       SCMP_SYS(readv),      SCMP_SYS(pread64),    SCMP_SYS(preadv),
           SCMP_SYS(write),      SCMP_SYS(writev),     SCMP_SYS(close),      SCMP_SYS(close_range),
           SCMP_SYS(fstat),      SCMP_SYS(newfstatat), SCMP_SYS(statx),      SCMP_SYS(stat),
           SCMP_SYS(lstat),      SCMP_SYS(lseek),      SCMP_SYS(getdents64), SCMP_SYS(readlink),
           SCMP_SYS(readlinkat), SCMP_SYS(access),     SCMP_SYS(faccessat),  SCMP_SYS(faccessat2),
           SCMP_SYS(dup),        SCMP_SYS(dup2),       SCMP_SYS(dup3),       SCMP_SYS(pipe2),
           SCMP_SYS(eventfd2),   SCMP_SYS(getcwd),     SCMP_SYS(umask)});
  // fcntl on its own descriptors only: not a signal to another process (F_SETOWN, F_SETSIG,
  // O_ASYNC), a lease or a watch on a file.
  for (const int command : {F_GETFD, F_SETFD, F_GETFL, F_DUPFD, F_DUPFD_CLOEXEC, F_GETPIPE_SZ}) {
    f.add(SCMP_ACT_ALLOW, SCMP_SYS(fcntl), {arg(1, SCMP_CMP_EQ, command)});
  }
  f.add(SCMP_ACT_ALLOW, SCMP_SYS(fcntl),
        {arg(1, SCMP_CMP_EQ, F_SETFL), arg(2, SCMP_CMP_MASKED_EQ, O_ASYNC, 0)});
  f.add(SCMP_ACT_ALLOW, SCMP_SYS(ioctl), {arg(1, SCMP_CMP_EQ, TCGETS)});
  f.add(SCMP_ACT_ALLOW, SCMP_SYS(ioctl), {arg(1, SCMP_CMP_EQ, FIONBIO)});
  // Files for reading only.
  constexpr scmp_datum_t kWriting = O_ACCMODE | O_CREAT | O_TRUNC | O_APPEND;
  f.add(SCMP_ACT_ALLOW, SCMP_SYS(openat), {arg(2, SCMP_CMP_MASKED_EQ, kWriting, O_RDONLY)});
  f.add(SCMP_ACT_ALLOW, SCMP_SYS(open), {arg(1, SCMP_CMP_MASKED_EQ, kWriting, O_RDONLY)});
  // What the process may learn of itself.
  f.allow({SCMP_SYS(getpid), SCMP_SYS(gettid), SCMP_SYS(getppid), SCMP_SYS(getuid),
           SCMP_SYS(geteuid), SCMP_SYS(getgid), SCMP_SYS(getegid), SCMP_SYS(uname),
           SCMP_SYS(sysinfo), SCMP_SYS(getrusage), SCMP_SYS(times), SCMP_SYS(getrlimit)});
  f.add(SCMP_ACT_ALLOW, SCMP_SYS(prlimit64), {arg(2, SCMP_CMP_EQ, 0)});  // reading a limit
  f.add(SCMP_ACT_ALLOW, SCMP_SYS(prctl), {arg(0, SCMP_CMP_EQ, PR_SET_NAME)});
  f.add(SCMP_ACT_ALLOW, SCMP_SYS(prctl), {arg(0, SCMP_CMP_EQ, PR_GET_NAME)});
  // Everything else traps: processes, exec, signals to others, writing files, sockets, real
  // timers and I/O readiness (epoll, timerfd: Asio's reactor), the clock, mounts, tracing.
  if (const int rc = ::seccomp_load(f.ctx); rc != 0) {
    throw std::runtime_error("seccomp_load: " + std::to_string(rc));
  }
}

}  // namespace overlap::sandbox
