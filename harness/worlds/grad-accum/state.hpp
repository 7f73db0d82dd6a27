// The grad-accum world's state behind the submission's Trainer: the weights and step, the
// devices, the snapshot slots, the objects the submission holds handles to, and what the checks
// read (applies, validations, the stop decision).
#pragma once

#include <optional>
#include <overlap/handler.hpp>
#include <string>
#include <vector>

#include "../../sim/simulator.hpp"
#include "../common/remote.hpp"
#include "model.hpp"
#include "objects.hpp"
#include "scenarios.hpp"
#include "wire.hpp"

namespace overlap::grad_accum::detail {

struct Validation {
  int check = 0;       // 1, 2, ... in the order validations started
  int step = 0;        // the snapshot's step
  sim::Time end = -1;  // when its result was in (-1: not finished)
  int trainer_step_at_end = 0;
};

class State {
 public:
  State(const Scenario& scenario, sim::Simulator& sim);
  State(const State&) = delete;
  State& operator=(const State&) = delete;

  const Scenario& scenario() const { return scenario_; }
  sim::Simulator& sim() { return sim_; }
  const model::Data& data() const { return data_; }

  // The operations behind Trainer's, Worker's and Validator's public ones (wire.hpp). An object a
  // call makes is kept under its number, and its facts sent; a null or empty object is an empty
  // handle (default-constructed or moved from).
  void start(const wire::Weights& args, worlds::Serving& call);
  void start(const wire::Snapshot& args, worlds::Serving& call);
  void start(const wire::Stop& args, worlds::Serving& call);
  void start(const wire::Compute& args, worlds::Serving& call);
  void start(const wire::Validate& args, worlds::Serving& call);
  void start(const wire::Apply& args, worlds::Serving& call);
  int step() const { return step_; }

  // What the checks read once the run is over.
  const std::vector<Validation>& validations() const { return validations_; }
  const std::optional<sim::Time>& stopped_at() const { return stopped_at_; }
  const Checkpoint& result() const { return result_; }
  int step_at_stop() const { return step_at_stop_; }
  std::string outstanding() const;

 private:
  const Scenario& scenario_;
  sim::Simulator& sim_;
  model::Data data_;
  model::Vector weights_;
  int step_ = 0;
  std::vector<sim::Device*> workers_, validators_;
  sim::Device* optimizer_ = nullptr;
  sim::MemoryPool* slots_ = nullptr;
  std::vector<Validation> validations_;
  std::optional<sim::Time> stopped_at_;
  int step_at_stop_ = 0;
  Checkpoint result_;
  Objects objects_;
};

}  // namespace overlap::grad_accum::detail
