// The parameter-server world's state behind the submission's Cluster: the server's weights and
// version, each worker's device and fate, the weights and gradients the submission holds handles
// to, and the apply log the checks replay.
#pragma once

#include <functional>
#include <memory>
#include <overlap/handler.hpp>
#include <string>
#include <utility>
#include <vector>

#include "../../sim/simulator.hpp"
#include "../common/remote.hpp"
#include "model.hpp"
#include "scenarios.hpp"
#include "wire.hpp"

namespace overlap::param_server::detail {

// What a Weights handle names: a copy of the server's weights at one version, pulled by one
// worker. The default one is an empty handle's (worker -1).
struct WeightsObject {
  model::Vector values;
  int version = -1;
  int worker = -1;
};

// What a Gradient handle names: one mini-batch's gradient, computed by one worker on one version
// of the weights. The default one is an empty handle's (worker -1).
struct GradientObject {
  model::Vector values;
  int mini_batch = -1;
  int version = -1;
  int worker = -1;
};

// What a worker runs, as the paths a run took are told from it.
enum class Activity { idle, pull, compute, send };

// A failure as it landed: on what the worker was running, and whether every mini-batch had
// already started a compute somewhere (the pool, whatever the program calls it, had run dry).
struct FailureSeen {
  int worker = -1;
  sim::Time at = 0;
  Activity during = Activity::idle;
  bool after_pool_dry = false;
};

// One update of the server's weights, as applied.
struct Apply {
  sim::Time at = 0;
  int version = 0;  // the version it produced
  std::vector<int> mini_batches;
  std::vector<int> staleness;  // per gradient
  std::vector<model::Vector> gradients;
};

class State {
 public:
  State(const Scenario& scenario, sim::Simulator& sim);
  State(const State&) = delete;
  State& operator=(const State&) = delete;

  const Scenario& scenario() const { return scenario_; }
  sim::Simulator& sim() { return sim_; }
  const model::Data& data() const { return data_; }

  // The operations behind Worker's and ParameterServer's public ones (wire.hpp). The objects
  // their handles name are consumed (an empty handle's is the default object, which the checks
  // reject as a misuse); the weights or gradient a call makes is kept under its number.
  void start(const wire::Pull& args, worlds::Serving& call);
  void start(const wire::Compute& args, worlds::Serving& call);
  void start(const wire::Push& args, worlds::Serving& call);
  void start(const wire::ApplyAverage& args, worlds::Serving& call);
  // The values the submission reads for free. Both change at events only: a failure at its
  // instant, the version at the end of a push or apply_average.
  bool failed(int w) const { return workers_[w].failed; }
  int version() const { return version_; }

  // What the checks read once the run is over.
  const model::Vector& weights() const { return weights_; }
  const std::vector<Apply>& applies() const { return applies_; }
  const std::vector<int>& times_applied() const { return times_applied_; }
  std::vector<int> mini_batches_per_worker() const;
  const std::vector<FailureSeen>& failures_seen() const { return failures_seen_; }
  // The first instant at which every mini-batch had started a compute; -1: never.
  sim::Time pool_dry_at() const { return pool_dry_at_; }
  // Workers alive at the end whose last operation was the send of an applied gradient, and which
  // had ended it before the pool ran dry: kept off the last mini-batches.
  std::vector<int> kept_off_tail() const;
  // Gradients computed by workers alive at the end and never applied: refused.
  int refused_gradients() const;
  std::string outstanding() const;  // for a deadlock report

 private:
  struct WorkerState {
    sim::Device* device = nullptr;
    int computes = 0;  // started, for the scenario's time of the next one
    bool failed = false;
    std::function<void()> abort;  // fails the operation running on this worker, if any
    int applied = 0;
    int computed = 0;  // computes that ended with a gradient
    Activity activity = Activity::idle;
    Activity last = Activity::idle;  // the last operation that ended
    sim::Time last_end = 0;
  };

  void fail_worker(int w);
  void begin(int w, Activity a) { workers_[w].activity = a; }
  void end(int w) {
    workers_[w].last = std::exchange(workers_[w].activity, Activity::idle);
    workers_[w].last_end = sim_.now();
  }
  // A call on a failed worker completes at once with errc::worker_failed.
  template <typename Handler>
  void refuse_failed(Handler handler);
  // Applies gradients at the end of a push or apply_average: the one place weights change.
  void apply(std::vector<std::shared_ptr<GradientObject>> gradients);
  sim::OpId begin_send(int w, const GradientObject& gradient);

  const Scenario& scenario_;
  sim::Simulator& sim_;
  model::Data data_;
  model::Vector weights_;
  int version_ = 0;
  sim::Device* server_ = nullptr;
  std::vector<WorkerState> workers_;
  std::vector<Apply> applies_;
  std::vector<int> times_applied_;
  std::vector<bool> started_;  // per mini-batch: a compute of it has started
  int started_count_ = 0;
  sim::Time pool_dry_at_ = -1;
  std::vector<FailureSeen> failures_seen_;
  worlds::Handles<WeightsObject> pulled_;
  worlds::Handles<GradientObject> gradients_;
};

}  // namespace overlap::param_server::detail
