// Synchronous SGD on a parameter server: in each round every live worker pulls the weights and
// computes one mini-batch's gradient, all at once; then the server applies their average. The
// slowest worker sets the pace of every round. Make it fast without breaking it: see README.md.
#include <boost/system/system_error.hpp>
#include <deque>
#include <optional>
#include <overlap/param_server.hpp>
#include <vector>

namespace ps = overlap::param_server;

void train(ps::Cluster& cluster) {
  const int workers = cluster.num_workers();
  std::deque<int> todo;  // mini-batches not applied yet
  for (int mb = 0; mb < cluster.mini_batches(); ++mb) todo.push_back(mb);

  while (!todo.empty()) {
    // One round: every live worker takes one mini-batch.
    std::vector<int> taken(workers, -1);
    for (int w = 0; w < workers && !todo.empty(); ++w) {
      if (cluster.worker(w).failed()) continue;
      taken[w] = todo.front();
      todo.pop_front();
    }
    std::vector<std::optional<ps::Gradient>> gradients(workers);
    cluster.run_parallel(workers, [&](int w) {
      if (taken[w] < 0) return;
      try {
        gradients[w] = cluster.worker(w).compute(cluster.worker(w).pull(), taken[w]);
      } catch (const boost::system::system_error&) {
        todo.push_back(taken[w]);  // the worker failed: its mini-batch goes round again
      }
    });
    std::vector<ps::Gradient> round;
    for (auto& g : gradients) {
      if (g) round.push_back(std::move(*g));
    }
    if (!round.empty()) cluster.server().apply_average(std::move(round));
  }
}

OVERLAP_TRAIN(train)
