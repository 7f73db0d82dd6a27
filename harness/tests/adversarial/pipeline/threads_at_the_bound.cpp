// Adversarial, and honest: 256 threads besides the main one alive at once, then all ended and
// joined, then 256 more alive at once. At the bound twice, never past it: no thread is refused
// (the host counts a thread's end before its join returns), and it says so by throwing.
#include <pthread.h>

#include <overlap/pipeline.hpp>
#include <stdexcept>
#include <string>

namespace pp = overlap::pipeline;

namespace {

constexpr int kThreads = 256;
pthread_mutex_t g_held = PTHREAD_MUTEX_INITIALIZER;

void* wait_for_the_main_thread(void*) {
  pthread_mutex_lock(&g_held);
  pthread_mutex_unlock(&g_held);
  return nullptr;
}

}  // namespace

void train(pp::Pipeline&) {
  pthread_attr_t small;
  pthread_attr_init(&small);
  pthread_attr_setstacksize(&small, 64 * 1024);
  for (int round = 1; round <= 2; ++round) {
    pthread_mutex_lock(&g_held);
    pthread_t threads[kThreads];
    for (int i = 0; i < kThreads; ++i) {
      if (pthread_create(&threads[i], &small, wait_for_the_main_thread, nullptr) != 0) {
        throw std::runtime_error("thread " + std::to_string(i + 1) + " of round " +
                                 std::to_string(round) + " refused");
      }
    }
    pthread_mutex_unlock(&g_held);
    for (pthread_t thread : threads) pthread_join(thread, nullptr);
  }
  throw std::runtime_error("256 threads alive at once, twice: none refused");
}

OVERLAP_TRAIN(train)
