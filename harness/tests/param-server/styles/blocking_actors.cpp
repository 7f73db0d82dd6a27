// Style: blocking calls only, one actor per worker through Cluster::run_parallel. Each worker
// loops on a shared pool of mini-batches and pushes its own gradients. Blocking code has nothing
// to wait on but operations, so a worker that finds the server busy waits with a 1 ms pull. A
// failed worker hands its mini-batch back, and the fork-join runs again for what is left.
#include <boost/system/system_error.hpp>
#include <deque>
#include <overlap/param_server.hpp>
#include <vector>

namespace ps = overlap::param_server;

void train(ps::Cluster& c) {
  std::deque<int> pool;
  for (int mb = 0; mb < c.mini_batches(); ++mb) pool.push_back(mb);
  std::vector<bool> retired(c.num_workers());
  int applied = 0, working = c.num_workers();
  bool server_busy = false;

  auto work = [&](int w) {
    ps::Worker& worker = c.worker(w);
    while (!pool.empty() && !retired[w]) {
      const int mb = pool.front();
      pool.pop_front();
      bool holding_server = false;
      try {
        ps::Gradient g = worker.compute(worker.pull(), mb);
        while (server_busy) worker.pull();  // sleep 1 ms
        const int bound = c.staleness_bound();
        if (bound >= 0 && c.server().version() - g.version() > bound) {
          pool.push_front(mb);  // too stale: retire, unless nobody else is left
          if (working > 1) retired[w] = true, --working;
          continue;
        }
        server_busy = holding_server = true;
        worker.push(std::move(g));
        server_busy = false;
        ++applied;
      } catch (const boost::system::system_error&) {  // this worker failed
        if (holding_server) server_busy = false;
        pool.push_front(mb);
        retired[w] = true;
        --working;
      }
    }
  };
  while (applied < c.mini_batches()) c.run_parallel(c.num_workers(), work);
}

OVERLAP_TRAIN(train)
