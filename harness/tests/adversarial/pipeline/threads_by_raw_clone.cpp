// Adversarial: a thousand threads started with a raw clone (the C library's clone(), which goes
// through no pthread_create), each on a stack of its own from mmap and waiting for ever on a
// futex, the error of each refused one ignored. The sandbox's host counts the clones themselves:
// the thread past the bound is refused and reported all the same.
#include <linux/futex.h>
#include <sched.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <cstddef>
#include <overlap/pipeline.hpp>

namespace pp = overlap::pipeline;

namespace {

constexpr std::size_t kStack = 64 * 1024;
int g_never = 0;  // no one wakes a waiter on it

// On its own stack but with the starting thread's thread-local storage (no CLONE_SETTLS): raw
// system calls only, and nothing read back.
int wait_for_ever(void*) {
  for (;;) ::syscall(SYS_futex, &g_never, FUTEX_WAIT, 0, nullptr, nullptr, 0);
}

}  // namespace

void train(pp::Pipeline&) {
  constexpr int kThread =
      CLONE_VM | CLONE_FS | CLONE_FILES | CLONE_SIGHAND | CLONE_THREAD | CLONE_SYSVSEM;
  for (int i = 0; i < 1000; ++i) {
    void* stack = ::mmap(nullptr, kStack, PROT_READ | PROT_WRITE,
                         MAP_PRIVATE | MAP_ANONYMOUS | MAP_STACK, -1, 0);
    if (stack == MAP_FAILED) continue;
    ::clone(wait_for_ever, static_cast<char*>(stack) + kStack, kThread, nullptr);  // ignored
  }
}

OVERLAP_TRAIN(train)
