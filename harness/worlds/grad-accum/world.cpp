#include "world.hpp"

#include <fmt/format.h>

#include <set>

#include "../../core/actor.hpp"
#include "../../core/operation.hpp"

namespace overlap::grad_accum {

// --- the public face -----------------------------------------------------------------------

Trainer::Trainer(detail::World& world) : world_(&world) {
  const Scenario& s = world.scenario();
  for (std::size_t w = 0; w < s.worker_ms.size(); ++w) {
    workers_.push_back(Worker(world, static_cast<int>(w)));
  }
  for (int v = 0; v < s.validators; ++v) validators_.push_back(Validator(world, v));
}

int Trainer::micro_batches_per_step() const { return world_->scenario().micro_batches; }
int Trainer::validate_every() const { return world_->scenario().validate_every; }
int Trainer::snapshot_slots() const { return world_->scenario().snapshot_slots; }
int Trainer::patience() const { return world_->scenario().patience; }
double Trainer::min_delta() const { return world_->scenario().min_delta; }
int Trainer::max_steps() const { return world_->scenario().max_steps; }
int Trainer::step() const { return world_->step(); }
Weights Trainer::weights() const { return world_->weights(); }
Snapshot Trainer::snapshot() { return world_->snapshot(); }
void Trainer::stop(const Checkpoint& best) { world_->stop(best); }

void Trainer::start_apply(std::vector<Gradient> gradients, Handler<> handler) {
  world_->start_apply(std::move(gradients), std::move(handler));
}

double Worker::ms_per_gradient() const { return world_->scenario().worker_ms[index_]; }

void Worker::start_compute(Weights weights, int mb, Handler<Gradient> handler) {
  world_->start_compute(index_, std::move(weights), mb, std::move(handler));
}

void Validator::start_validate(Snapshot snapshot, Handler<Checkpoint> handler) {
  world_->start_validate(index_, std::move(snapshot), std::move(handler));
}

// --- the world -----------------------------------------------------------------------------

namespace detail {

World::World(const Scenario& scenario, sim::Simulator& sim)
    : scenario_(scenario),
      sim_(sim),
      data_{scenario.seed, scenario.learning_rate},
      weights_(model::initial_weights()) {
  for (std::size_t w = 0; w < scenario.worker_ms.size(); ++w) {
    workers_.push_back(&sim.add_device(fmt::format("worker {}", w)));
  }
  optimizer_ = &sim.add_device("optimizer");
  for (int v = 0; v < scenario.validators; ++v) {
    validators_.push_back(&sim.add_device(fmt::format("validator {}", v)));
  }
  slots_ = &sim.add_pool("snapshot slots", "snapshots", scenario.snapshot_slots);
  trainer_.reset(new Trainer(*this));
}

Weights World::weights() const {
  Weights w;
  w.values_ = weights_;
  w.step_ = step_;
  return w;
}

Snapshot World::snapshot() {
  slots_->charge(1, fmt::format("snapshot of step {}", step_), sim_.now());
  Snapshot s;
  s.values_ = weights_;
  s.step_ = step_;
  return s;
}

void World::stop(const Checkpoint& best) {
  if (stopped_at_) {
    sim_.violations().add("misuse", "stop() called twice", sim_.now());
    return;
  }
  stopped_at_ = sim_.now();
  step_at_stop_ = step_;
  result_ = best;
}

void World::start_compute(int w, Weights weights, int mb, Handler<Gradient> handler) {
  if (weights.step_ < 0) {
    return sim::reject(sim_, std::move(handler),
                       fmt::format("worker {}: compute() of empty weights", w));
  }
  Gradient g;
  g.values_ = model::gradient(data_, weights.values_, mb);
  g.micro_batch_ = mb;
  g.step_ = weights.step_;
  sim::Operation<Gradient>::start(
      sim_, *workers_[w], {"compute", fmt::format("mb {} on step {}", mb, weights.step_), 'C'},
      sim::ms(scenario_.worker_ms[w]), std::move(handler), {std::move(g)}, sim::Cancellable::yes);
}

void World::start_validate(int v, Snapshot snapshot, Handler<Checkpoint> handler) {
  if (snapshot.step_ < 0) {
    return sim::reject(sim_, std::move(handler),
                       fmt::format("validator {}: validate() of an empty snapshot", v));
  }
  const int check = static_cast<int>(validations_.size()) + 1;
  const int due = check * scenario_.validate_every;
  if (due > scenario_.max_steps) {
    return sim::reject(
        sim_, std::move(handler),
        fmt::format("validator {}: a check {} (step {}) is beyond the step limit of {}", v, check,
                    due, scenario_.max_steps));
  }
  if (snapshot.step_ != due) {
    sim_.violations().add(
        "wrong-snapshot",
        fmt::format("check {} validated the weights of step {}, not step {}: take the snapshot "
                    "right after step {} is applied",
                    check, snapshot.step_, due, due),
        sim_.now());
  }
  validations_.push_back({check, snapshot.step_});
  Checkpoint result;
  result.values_ = snapshot.values_;
  result.step_ = snapshot.step_;
  result.loss_ = model::validation_loss(data_, snapshot.values_);
  sim::Operation<Checkpoint>::start(
      sim_, *validators_[v],
      {"validate", fmt::format("check {} (step {})", check, snapshot.step_), 'V'},
      sim::ms(scenario_.validation_ms(v)), std::move(handler), {std::move(result)},
      sim::Cancellable::yes, [this, check](sim::OpStatus status) {
        slots_->release(1);
        if (status == sim::OpStatus::done) {
          validations_[check - 1].end = sim_.now();
          validations_[check - 1].trainer_step_at_end = step_;
        }
      });
}

void World::start_apply(std::vector<Gradient> gradients, Handler<> handler) {
  const int n = scenario_.micro_batches;
  if (stopped_at_) {
    sim_.violations().add("applied-after-stop",
                          fmt::format("an optimizer step (step {}) started after stop() at {:g} ms",
                                      step_, sim::to_ms(*stopped_at_)),
                          sim_.now());
  }
  if (step_ >= scenario_.max_steps) {
    sim_.violations().add("misuse",
                          fmt::format("optimizer step {} is beyond the step limit of {}", step_ + 1,
                                      scenario_.max_steps),
                          sim_.now());
  }
  std::set<int> seen, repeated;
  for (const Gradient& g : gradients) {
    if (g.step_ < 0) return sim::reject(sim_, std::move(handler), "apply() of an empty Gradient");
    if (g.step_ != step_) {
      sim_.violations().add(
          "stale-gradient",
          fmt::format("step {}: the gradient of micro-batch {} was computed on the weights of "
                      "step {}",
                      step_, g.micro_batch_, g.step_),
          sim_.now());
    }
    if (!seen.insert(g.micro_batch_).second) repeated.insert(g.micro_batch_);
  }
  std::vector<int> missing, foreign;
  for (int mb = step_ * n; mb < (step_ + 1) * n; ++mb) {
    if (!seen.contains(mb)) missing.push_back(mb);
  }
  for (int mb : seen) {
    if (mb < step_ * n || mb >= (step_ + 1) * n) foreign.push_back(mb);
  }
  if (!missing.empty()) {
    sim_.violations().add(
        "lost-update",
        fmt::format("step {} applied without micro-batches {}", step_, fmt::join(missing, ", ")),
        sim_.now());
  }
  if (!repeated.empty() || !foreign.empty()) {
    sim_.violations().add(
        "duplicate-update",
        fmt::format("step {} applied micro-batches twice or from another step: {}", step_,
                    fmt::join(repeated.empty() ? foreign
                                               : std::vector<int>(repeated.begin(), repeated.end()),
                              ", ")),
        sim_.now());
  }
  auto shared = std::make_shared<std::vector<Gradient>>(std::move(gradients));
  sim::Operation<>::start(sim_, *optimizer_, {"apply", fmt::format("step {}", step_), 'A'},
                          sim::ms(scenario_.optimizer_ms), std::move(handler), {},
                          sim::Cancellable::yes, [this, shared](sim::OpStatus status) {
                            if (status != sim::OpStatus::done) return;  // cancelled: no update
                            std::vector<const model::Vector*> values;
                            for (const Gradient& g : *shared) values.push_back(&g.values_);
                            if (!values.empty()) model::apply(data_, weights_, values);
                            ++step_;
                          });
}

std::string World::outstanding() const {
  int finished = 0;
  for (const Validation& v : validations_) finished += v.end >= 0;
  return fmt::format("{} optimizer steps applied; {} checks validated, {} started; {}", step_,
                     finished, validations_.size(),
                     stopped_at_ ? "stop() was called" : "stop() not called");
}

}  // namespace detail
}  // namespace overlap::grad_accum
