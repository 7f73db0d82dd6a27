// Adversarial, the other half of reads_another_grade.cpp: a grade that holds a secret in its
// memory for two seconds of real time, then stops.
#include <chrono>
#include <overlap/pipeline.hpp>
#include <stdexcept>
#include <thread>

namespace pp = overlap::pipeline;

volatile const char g_secret[] = "other-grade-secret";

void train(pp::Pipeline&) {
  std::this_thread::sleep_for(std::chrono::seconds(2));
  throw std::runtime_error(const_cast<const char*>(g_secret));
}

OVERLAP_TRAIN(train)
