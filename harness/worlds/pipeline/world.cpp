#include "world.hpp"

#include <fmt/format.h>

#include "../../core/actor.hpp"
#include "../../core/operation.hpp"

namespace overlap::pipeline {

using Tensors = sim::Operation<Tensor>;
using Nothing = sim::Operation<>;

// --- the public face -----------------------------------------------------------------------

Pipeline::Pipeline(detail::World& world) : world_(&world) {
  for (int s = 0; s < world.scenario().stages(); ++s) stages_.push_back(Stage(world, s));
}

int Pipeline::micro_batches() const { return world_->scenario().micro_batches; }
int Pipeline::steps() const { return world_->scenario().steps; }
int Pipeline::stash_budget(int stage) const { return world_->scenario().stashes.at(stage); }

Tensor Pipeline::input(int step, int micro_batch) const {
  return model::input(world_->shape(), world_->scenario().seed, step, micro_batch);
}

Tensor Pipeline::loss_gradient(int step, int micro_batch, const Tensor& output) const {
  return model::loss_gradient(
      world_->shape(), output,
      model::target(world_->shape(), world_->scenario().seed, step, micro_batch));
}

void Stage::start_forward(int mb, Tensor x, Handler<Tensor> handler) {
  world_->start_forward(index_, mb, std::move(x), std::move(handler));
}
void Stage::start_backward(int mb, Tensor grad, Handler<Tensor> handler) {
  world_->start_backward(index_, mb, std::move(grad), std::move(handler));
}
void Stage::start_optimizer_step(Handler<> handler) {
  world_->start_optimizer_step(index_, std::move(handler));
}

// --- the world -----------------------------------------------------------------------------

namespace detail {

World::World(const Scenario& scenario, sim::Simulator& sim)
    : scenario_(scenario),
      sim_(sim),
      shape_(model::shape_for(scenario.stages(), scenario.micro_batches)),
      layers_(model::initial_layers(shape_, scenario.seed)) {
  for (int s = 0; s < scenario.stages(); ++s) {
    StageState state;
    state.device = &sim.add_device(fmt::format("stage {}", s));
    state.stash_pool =
        &sim.add_pool(fmt::format("stage {} activations", s), "stashes", scenario.stashes[s]);
    state.gradient_sum = model::zero_like(layers_[s]);
    state.forwards.assign(scenario.micro_batches, 0);
    state.backwards.assign(scenario.micro_batches, 0);
    stages_.push_back(std::move(state));
  }
  pipeline_.reset(new Pipeline(*this));
}

template <typename Handler>
void World::reject(Handler handler, int stage, std::string message) {
  sim::reject(sim_, std::move(handler), fmt::format("stage {}: {}", stage, message));
}

void World::start_forward(int s, int mb, Tensor x, Handler<Tensor> handler) {
  StageState& st = stages_[s];
  const int step = st.steps_done;
  if (mb < 0 || mb >= scenario_.micro_batches) {
    return reject(std::move(handler), s,
                  fmt::format("forward(micro_batch {}) is out of range [0, {})", mb,
                              scenario_.micro_batches));
  }
  if (st.stashes.contains(mb)) {
    return reject(std::move(handler), s,
                  fmt::format("forward(micro_batch {}) while micro-batch {} is already in "
                              "flight on this stage (its backward has not run)",
                              mb, mb));
  }
  if (x.cols() != shape_.widths[s] || x.rows() != shape_.rows) {
    return reject(std::move(handler), s,
                  fmt::format("forward(micro_batch {}) got a {}x{} input, the layer takes {}x{}: "
                              "is it stage {}'s output?",
                              mb, x.rows(), x.cols(), shape_.rows, shape_.widths[s], s - 1));
  }
  ++st.forwards[mb];
  Tensor y = model::forward(layers_[s], x);
  st.stashes.emplace(mb, model::Stash{std::move(x), y});
  st.stash_pool->charge(1, fmt::format("forward(step {}, mb {})", step, mb), sim_.now());
  Tensors::start(sim_, *st.device, {"forward", fmt::format("step {}, mb {}", step, mb), 'F'},
                 sim::ms(scenario_.forward_ms[s]), std::move(handler), {std::move(y)});
}

void World::start_backward(int s, int mb, Tensor grad, Handler<Tensor> handler) {
  StageState& st = stages_[s];
  const int step = st.steps_done;
  auto stash = st.stashes.find(mb);
  if (stash == st.stashes.end()) {
    return reject(std::move(handler), s,
                  fmt::format("backward(micro_batch {}) without its forward on this stage", mb));
  }
  if (grad.cols() != shape_.widths[s + 1] || grad.rows() != shape_.rows) {
    return reject(std::move(handler), s,
                  fmt::format("backward(micro_batch {}) got a {}x{} gradient, the layer's output "
                              "is {}x{}",
                              mb, grad.rows(), grad.cols(), shape_.rows, shape_.widths[s + 1]));
  }
  ++st.backwards[mb];
  Tensor dx = model::backward(layers_[s], stash->second, grad, st.gradient_sum);
  st.stashes.erase(stash);
  // The stash is freed when the backward ends, not when it starts.
  Tensors::start(sim_, *st.device, {"backward", fmt::format("step {}, mb {}", step, mb), 'B'},
                 sim::ms(scenario_.backward_ms[s]), std::move(handler), {std::move(dx)},
                 sim::Cancellable::no, [pool = st.stash_pool](sim::OpStatus) { pool->release(1); });
}

void World::check_step_complete(int s) {
  StageState& st = stages_[s];
  std::vector<int> missing, repeated;
  for (int mb = 0; mb < scenario_.micro_batches; ++mb) {
    const int least = std::min(st.forwards[mb], st.backwards[mb]);
    const int most = std::max(st.forwards[mb], st.backwards[mb]);
    if (least == 0) missing.push_back(mb);
    if (most > 1) repeated.push_back(mb);
  }
  if (!missing.empty()) {
    sim_.violations().add("lost-update",
                          fmt::format("stage {}, step {}: optimizer step without micro-batches "
                                      "{} through forward and backward",
                                      s, st.steps_done, fmt::join(missing, ", ")),
                          sim_.now());
  }
  if (!repeated.empty()) {
    sim_.violations().add("duplicate-update",
                          fmt::format("stage {}, step {}: micro-batches {} went through this "
                                      "stage more than once",
                                      s, st.steps_done, fmt::join(repeated, ", ")),
                          sim_.now());
  }
}

void World::start_optimizer_step(int s, Handler<> handler) {
  StageState& st = stages_[s];
  if (st.steps_done >= scenario_.steps) {
    return reject(
        std::move(handler), s,
        fmt::format("optimizer step {} of a run of {} steps", st.steps_done + 1, scenario_.steps));
  }
  check_step_complete(s);
  model::sgd_step(layers_[s], st.gradient_sum, shape_.learning_rate);
  std::fill(st.forwards.begin(), st.forwards.end(), 0);
  std::fill(st.backwards.begin(), st.backwards.end(), 0);
  Nothing::start(sim_, *st.device, {"optimizer_step", fmt::format("step {}", st.steps_done), 'o'},
                 sim::ms(scenario_.optimizer_ms), std::move(handler), {});
  ++st.steps_done;
}

std::string World::unapplied_work() const {
  std::vector<std::string> out;
  for (std::size_t s = 0; s < stages_.size(); ++s) {
    int touched = 0;
    for (int mb = 0; mb < scenario_.micro_batches; ++mb) {
      touched += stages_[s].forwards[mb] + stages_[s].backwards[mb];
    }
    if (touched > 0)
      out.push_back(
          fmt::format("stage {} ran {} operations after its last "
                      "optimizer step",
                      s, touched));
  }
  return fmt::format("{}", fmt::join(out, "; "));
}

std::string World::outstanding() const {
  std::vector<std::string> out;
  for (std::size_t s = 0; s < stages_.size(); ++s) {
    std::vector<int> held;
    for (const auto& [mb, stash] : stages_[s].stashes) held.push_back(mb);
    out.push_back(fmt::format("stage {}: step {}, {}", s, stages_[s].steps_done,
                              held.empty() ? std::string("nothing in flight")
                                           : fmt::format("micro-batches {} forwarded, not yet "
                                                         "backward",
                                                         fmt::join(held, ", "))));
  }
  return fmt::format("{}", fmt::join(out, "; "));
}

}  // namespace detail
}  // namespace overlap::pipeline
