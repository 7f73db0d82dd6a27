// Adversarial: a thousand threads from the C library's own pthread_create, looked up past any
// the submission program might define (dlsym(RTLD_NEXT)), on small stacks (so memory does not
// stop them first), the error of each refused one ignored. The sandbox's host counts the clones
// themselves: the thread past the bound is refused and reported all the same.
#include <dlfcn.h>
#include <pthread.h>

#include <overlap/pipeline.hpp>
#include <stdexcept>

namespace pp = overlap::pipeline;

namespace {

pthread_mutex_t g_held = PTHREAD_MUTEX_INITIALIZER;

void* wait_for_ever(void*) {
  pthread_mutex_lock(&g_held);
  return nullptr;
}

using Create = int (*)(pthread_t*, const pthread_attr_t*, void* (*)(void*), void*);

}  // namespace

void train(pp::Pipeline&) {
  const auto create = reinterpret_cast<Create>(::dlsym(RTLD_NEXT, "pthread_create"));
  if (!create) throw std::runtime_error("no pthread_create past the submission's own");
  pthread_mutex_lock(&g_held);
  pthread_attr_t small;
  pthread_attr_init(&small);
  pthread_attr_setstacksize(&small, 64 * 1024);
  for (int i = 0; i < 1000; ++i) {
    pthread_t thread;
    if (create(&thread, &small, wait_for_ever, nullptr) != 0) continue;  // ignored
  }
}

OVERLAP_TRAIN(train)
