#include "state.hpp"

#include <fmt/format.h>

#include <memory>
#include <set>
#include <utility>

#include "../../sim/operation.hpp"

namespace overlap::grad_accum::detail {

State::State(const Scenario& scenario, sim::Simulator& sim)
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
}

void State::start(const wire::Weights&, worlds::Serving& call) {
  objects_.weights.add(call.number(), Weights{weights_, step_});
}

void State::start(const wire::Snapshot&, worlds::Serving& call) {
  slots_->charge(1, fmt::format("snapshot of step {}", step_), sim_.now());
  objects_.snapshots.add(call.number(), Snapshot{weights_, step_});
}

void State::start(const wire::Stop& args, worlds::Serving& call) {
  const Checkpoint* best =
      objects_.checkpoints.find(call.handle(args.checkpoint, "checkpoint"), "checkpoint");
  if (stopped_at_) {
    sim_.violations().add("misuse", "stop() called twice", sim_.now());
    return;
  }
  stopped_at_ = sim_.now();
  step_at_stop_ = step_;
  result_ = best ? *best : Checkpoint{};
}

void State::start(const wire::Compute& args, worlds::Serving& call) {
  const int w = args.worker, mb = args.micro_batch;
  const Weights* weights = objects_.weights.find(call.handle(args.weights, "weights"), "weights");
  Handler<Gradient> handler = call.keep(objects_.gradients, [](const Gradient& g) {
    return wire::GradientFacts{g.micro_batch, g.step};
  });
  if (weights == nullptr) {
    return sim::reject(sim_, std::move(handler),
                       fmt::format("worker {}: compute() of empty weights", w));
  }
  Gradient g{model::gradient(data_, weights->values, mb), mb, weights->step};
  sim::Operation<Gradient>::start(
      sim_, *workers_[w], {"compute", fmt::format("mb {} on step {}", mb, weights->step), 'C'},
      sim::from_ms(scenario_.worker_ms[w]), std::move(handler), {std::move(g)},
      sim::Cancellable::yes);
}

void State::start(const wire::Validate& args, worlds::Serving& call) {
  const int v = args.validator;
  std::optional<Snapshot> snapshot =
      objects_.snapshots.take(call.handle(args.snapshot, "snapshot"), "snapshot");
  Handler<Checkpoint> handler = call.keep(objects_.checkpoints, [](const Checkpoint& c) {
    return wire::CheckpointFacts{c.step, c.loss};
  });
  if (!snapshot) {
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
  if (snapshot->step != due) {
    sim_.violations().add(
        "wrong-snapshot",
        fmt::format("check {} validated the weights of step {}, not step {}: take the snapshot "
                    "right after step {} is applied",
                    check, snapshot->step, due, due),
        sim_.now());
  }
  validations_.push_back({check, snapshot->step});
  const double loss = model::validation_loss(data_, snapshot->values);
  Checkpoint result{std::move(snapshot->values), snapshot->step, loss};
  sim::Operation<Checkpoint>::start(
      sim_, *validators_[v],
      {"validate", fmt::format("check {} (step {})", check, snapshot->step), 'V'},
      sim::from_ms(scenario_.validation_ms(v)), std::move(handler), {std::move(result)},
      sim::Cancellable::yes, [this, check](sim::OpStatus status) {
        slots_->release(1);
        if (status == sim::OpStatus::done) {
          validations_[check - 1].end = sim_.now();
          validations_[check - 1].trainer_step_at_end = step_;
        }
      });
}

void State::start(const wire::Apply& args, worlds::Serving& call) {
  std::vector<std::optional<Gradient>> gradients;
  for (protocol::Handle h : args.gradients) {
    gradients.push_back(objects_.gradients.take(call.handle(h, "gradient"), "gradient"));
  }
  Handler<> handler = call.reply();
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
  for (const std::optional<Gradient>& g : gradients) {
    if (!g) return sim::reject(sim_, std::move(handler), "apply() of an empty Gradient");
    if (g->step != step_) {
      sim_.violations().add(
          "stale-gradient",
          fmt::format("step {}: the gradient of micro-batch {} was computed on the weights of "
                      "step {}",
                      step_, g->micro_batch, g->step),
          sim_.now());
    }
    if (!seen.insert(g->micro_batch).second) repeated.insert(g->micro_batch);
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
  auto shared = std::make_shared<std::vector<std::optional<Gradient>>>(std::move(gradients));
  sim::Operation<>::start(sim_, *optimizer_, {"apply", fmt::format("step {}", step_), 'A'},
                          sim::from_ms(scenario_.optimizer_ms), std::move(handler), {},
                          sim::Cancellable::yes, [this, shared](sim::OpStatus status) {
                            if (status != sim::OpStatus::done) return;  // cancelled: no update
                            std::vector<const model::Vector*> values;
                            for (const auto& g : *shared) values.push_back(&g->values);
                            if (!values.empty()) model::apply(data_, weights_, values);
                            ++step_;
                          });
}

std::string State::outstanding() const {
  int finished = 0;
  for (const Validation& v : validations_) finished += v.end >= 0;
  return fmt::format("{} optimizer steps applied; {} checks validated, {} started; {}", step_,
                     finished, validations_.size(),
                     stopped_at_ ? "stop() was called" : "stop() not called");
}

}  // namespace overlap::grad_accum::detail
