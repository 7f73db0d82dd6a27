// The submission's threads, bounded: the launcher's own pthread_create, which every thread of
// the submission goes through (std::thread, Asio's thread_pool: the launcher exports it, so it
// comes before the C library's), counts the threads alive and refuses one past kMaxThreads as
// a sandbox refusal, reported to the judge even if the submission would catch the error. Inside
// the sandbox's user namespace RLIMIT_NPROC is the kernel's bound behind it, for a thread
// started with a raw clone.
#include <dlfcn.h>
#include <pthread.h>
#include <signal.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <atomic>
#include <cerrno>
#include <cstdint>

#include "filter.hpp"

namespace {

std::atomic<int> g_alive{0};

struct Start {
  void* (*routine)(void*);
  void* arg;
};

void* run(void* start) {
  const Start s = *static_cast<Start*>(start);
  delete static_cast<Start*>(start);
  // On return, pthread_exit and cancellation alike (both unwind this frame).
  struct Leave {
    ~Leave() { g_alive.fetch_sub(1, std::memory_order_relaxed); }
  } leave;
  return s.routine(s.arg);
}

using Create = int (*)(pthread_t*, const pthread_attr_t*, void* (*)(void*), void*);

Create real_create() {
  static const Create create = reinterpret_cast<Create>(::dlsym(RTLD_NEXT, "pthread_create"));
  return create;
}

}  // namespace

extern "C" int pthread_create(pthread_t* thread, const pthread_attr_t* attr,
                              void* (*routine)(void*), void* arg) {
  const Create create = real_create();
  if (!create) return EAGAIN;
  if (g_alive.fetch_add(1, std::memory_order_relaxed) >= overlap::sandbox::kMaxThreads) {
    // Async-signal-safe, as the filter's own report: the refusal, then the whole process ends.
    const std::int32_t refusal = overlap::sandbox::kTooManyThreads;
    [[maybe_unused]] const auto written =
        ::write(overlap::sandbox::kRefusalFd, &refusal, sizeof refusal);
    ::syscall(SYS_exit_group, 128 + SIGSYS);
  }
  auto* start = new Start{routine, arg};
  const int rc = create(thread, attr, run, start);
  if (rc != 0) {
    delete start;
    g_alive.fetch_sub(1, std::memory_order_relaxed);
  }
  return rc;
}
