// The pipeline world's state behind the submission's Pipeline and Stages: weights, the tensors
// the submission holds handles to, stashes, gradient sums, and the bookkeeping the checks read.
#pragma once

#include <map>
#include <overlap/handler.hpp>
#include <string>
#include <vector>

#include "../../sim/simulator.hpp"
#include "../common/remote.hpp"
#include "model.hpp"
#include "scenarios.hpp"
#include "wire.hpp"

namespace overlap::pipeline::detail {

using model::Matrix;

class State {
 public:
  State(const Scenario& scenario, sim::Simulator& sim);
  State(const State&) = delete;
  State& operator=(const State&) = delete;

  const Scenario& scenario() const { return scenario_; }
  const model::Shape& shape() const { return shape_; }
  sim::Simulator& sim() { return sim_; }

  // The operations behind Pipeline's and Stage's public ones (wire.hpp). A tensor a call makes
  // is kept under its number, and its shape sent; an empty handle is a null tensor.
  void start(const wire::Input& args, worlds::Serving& call);
  void start(const wire::LossGradient& args, worlds::Serving& call);
  void start(const wire::Forward& args, worlds::Serving& call);
  void start(const wire::Backward& args, worlds::Serving& call);
  void start(const wire::OptimizerStep& args, worlds::Serving& call);

  // What the checks read once the run is over.
  const std::vector<model::Layer>& layers() const { return layers_; }
  int steps_done(int stage) const { return stages_[stage].steps_done; }
  // The most activation stashes the stage held at once.
  int peak_stashes(int stage) const { return static_cast<int>(stages_[stage].stash_pool->peak()); }
  // Work done after the last optimizer step, never applied.
  std::string unapplied_work() const;
  // Micro-batches in flight per stage, for a deadlock report.
  std::string outstanding() const;

 private:
  struct StageState {
    sim::Device* device = nullptr;
    sim::MemoryPool* stash_pool = nullptr;
    std::map<int, model::Stash> stashes;  // by micro-batch
    model::Layer gradient_sum;
    std::vector<int> forwards;   // this step, per micro-batch
    std::vector<int> backwards;  // this step, per micro-batch
    int steps_done = 0;
  };

  // The tensor loss_gradient makes: an empty one where the call is a misuse.
  Matrix loss_gradient(const wire::LossGradient& args, worlds::Serving& call);
  Handler<Matrix> keep_tensor(worlds::Serving& call);

  // A call that breaks the operation's requirements: a violation, and the operation completes
  // at once with errc::misuse without running.
  template <typename Handler>
  void reject(Handler handler, int stage, std::string message);
  void check_step_complete(int stage);

  const Scenario& scenario_;
  sim::Simulator& sim_;
  model::Shape shape_;
  std::vector<model::Layer> layers_;
  std::vector<StageState> stages_;
  worlds::Handles<Matrix> tensors_;
};

}  // namespace overlap::pipeline::detail
