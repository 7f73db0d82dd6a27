// Adversarial: 999 999 pulls issued on one worker in one instant, none waited for. Each is a
// contention; the judge's work on them is bounded by the real-time limit, whatever their number.
#include <boost/system/error_code.hpp>
#include <overlap/param_server.hpp>

namespace ps = overlap::param_server;

void train(ps::Cluster& cluster) {
  ps::Worker& worker = cluster.worker(0);
  for (int i = 0; i < 999'999; ++i) {
    worker.async_pull([](boost::system::error_code, ps::Weights) {});
  }
}

OVERLAP_TRAIN(train)
