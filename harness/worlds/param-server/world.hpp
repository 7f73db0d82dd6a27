// The parameter-server world's state behind the public Cluster: the server's weights and
// version, each worker's device and fate, and the apply log the checks replay.
#pragma once

#include <functional>
#include <memory>
#include <overlap/param_server.hpp>
#include <string>
#include <vector>

#include "../../core/simulator.hpp"
#include "model.hpp"
#include "scenarios.hpp"

namespace overlap::param_server::detail {

// One update of the server's weights, as applied.
struct Apply {
  sim::Time at = 0;
  int version = 0;  // the version it produced
  std::vector<int> mini_batches;
  std::vector<int> staleness;  // per gradient
  std::vector<model::Vector> gradients;
};

class World {
 public:
  World(const Scenario& scenario, sim::Simulator& sim);
  World(const World&) = delete;
  World& operator=(const World&) = delete;

  Cluster& cluster() { return *cluster_; }
  const Scenario& scenario() const { return scenario_; }
  sim::Simulator& sim() { return sim_; }
  const model::Data& data() const { return data_; }

  void start_pull(int w, Handler<Weights> handler);
  void start_compute(int w, Weights weights, int mini_batch, Handler<Gradient> handler);
  void start_push(int w, Gradient gradient, Handler<> handler);
  void start_apply_average(std::vector<Gradient> gradients, Handler<> handler);
  bool failed(int w) const { return workers_[w].failed; }
  int version() const { return version_; }

  // What the checks read once the run is over.
  const model::Vector& weights() const { return weights_; }
  const std::vector<Apply>& applies() const { return applies_; }
  const std::vector<int>& times_applied() const { return times_applied_; }
  std::vector<int> mini_batches_per_worker() const;
  std::string outstanding() const;  // for a deadlock report

 private:
  struct WorkerState {
    sim::Device* device = nullptr;
    int computes = 0;  // started, for the scenario's time of the next one
    bool failed = false;
    std::function<void()> abort;  // fails the operation running on this worker, if any
    int applied = 0;
  };

  void fail_worker(int w);
  // A call on a failed worker completes at once with errc::worker_failed.
  template <typename Handler>
  void refuse_failed(Handler handler);
  // Applies gradients at the end of a push or apply_average: the one place weights change.
  void apply(std::vector<std::shared_ptr<Gradient>> gradients);
  sim::OpId begin_send(int w, const Gradient& gradient);

  const Scenario& scenario_;
  sim::Simulator& sim_;
  model::Data data_;
  model::Vector weights_;
  int version_ = 0;
  sim::Device* server_ = nullptr;
  std::vector<WorkerState> workers_;
  std::vector<Apply> applies_;
  std::vector<int> times_applied_;
  std::unique_ptr<Cluster> cluster_;
};

}  // namespace overlap::param_server::detail
