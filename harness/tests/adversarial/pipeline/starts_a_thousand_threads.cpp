// Adversarial: a thousand threads on small stacks (so memory does not stop them first), the
// error of each refused one caught and ignored. The sandbox bounds the threads alive at once and
// reports the one past the bound, whatever the submission does with the error.
#include <pthread.h>

#include <overlap/pipeline.hpp>

namespace pp = overlap::pipeline;

namespace {

pthread_mutex_t g_held = PTHREAD_MUTEX_INITIALIZER;

void* wait_for_ever(void*) {
  pthread_mutex_lock(&g_held);
  return nullptr;
}

}  // namespace

void train(pp::Pipeline&) {
  pthread_mutex_lock(&g_held);
  pthread_attr_t small;
  pthread_attr_init(&small);
  pthread_attr_setstacksize(&small, 64 * 1024);
  for (int i = 0; i < 1000; ++i) {
    pthread_t thread;
    if (pthread_create(&thread, &small, wait_for_ever, nullptr) != 0) continue;  // ignored
  }
}

OVERLAP_TRAIN(train)
