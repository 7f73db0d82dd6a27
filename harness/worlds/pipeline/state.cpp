#include "state.hpp"

#include <fmt/format.h>

#include "../../sim/operation.hpp"

namespace overlap::pipeline::detail {

using Tensors = sim::Operation<Matrix>;
using Nothing = sim::Operation<>;

State::State(const Scenario& scenario, sim::Simulator& sim)
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
}

template <typename Handler>
void State::reject(Handler handler, int stage, std::string message) {
  sim::reject(sim_, std::move(handler), fmt::format("stage {}: {}", stage, message));
}

Handler<Matrix> State::keep_tensor(worlds::Serving& call) {
  return call.keep(tensors_, [](const Matrix& m) { return wire::Shape{m.rows(), m.cols()}; });
}

void State::start(const wire::Input& args, worlds::Serving& call) {
  tensors_.add(call.number(), model::input(shape_, scenario_.seed, args.step, args.micro_batch));
}

void State::start(const wire::LossGradient& args, worlds::Serving& call) {
  tensors_.add(call.number(), loss_gradient(args, call));
}

Matrix State::loss_gradient(const wire::LossGradient& args, worlds::Serving& call) {
  const int step = args.step, mb = args.micro_batch;
  const Matrix* output = tensors_.find(call.handle(args.output, "output"), "tensor");
  if (output == nullptr || output->rows() != shape_.rows ||
      output->cols() != shape_.widths.back()) {
    sim_.violations().add(
        "misuse",
        fmt::format("loss_gradient(step {}, micro_batch {}) of {}, not the last stage's output",
                    step, mb,
                    output ? fmt::format("a {}x{} tensor", output->rows(), output->cols())
                           : std::string("an empty tensor")),
        sim_.now());
    return {};
  }
  return model::loss_gradient(shape_, *output, model::target(shape_, scenario_.seed, step, mb));
}

void State::start(const wire::Forward& args, worlds::Serving& call) {
  const int s = args.stage, mb = args.micro_batch;
  const Matrix* x = tensors_.find(call.handle(args.input, "input"), "tensor");
  Handler<Matrix> handler = keep_tensor(call);
  StageState& st = stages_[s];
  const int step = st.steps_done;
  if (x == nullptr) {
    return reject(std::move(handler), s,
                  fmt::format("forward(micro_batch {}) of an empty tensor", mb));
  }
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
  if (x->cols() != shape_.widths[s] || x->rows() != shape_.rows) {
    return reject(std::move(handler), s,
                  fmt::format("forward(micro_batch {}) got a {}x{} input, the layer takes {}x{}: "
                              "is it stage {}'s output?",
                              mb, x->rows(), x->cols(), shape_.rows, shape_.widths[s], s - 1));
  }
  ++st.forwards[mb];
  Matrix y = model::forward(layers_[s], *x);
  st.stashes.emplace(mb, model::Stash{*x, y});
  st.stash_pool->charge(1, fmt::format("forward(step {}, mb {})", step, mb), sim_.now());
  Tensors::start(sim_, *st.device, {"forward", fmt::format("step {}, mb {}", step, mb), 'F'},
                 sim::from_ms(scenario_.forward_ms[s]), std::move(handler), {std::move(y)});
}

void State::start(const wire::Backward& args, worlds::Serving& call) {
  const int s = args.stage, mb = args.micro_batch;
  const Matrix* grad = tensors_.find(call.handle(args.gradient, "gradient"), "tensor");
  Handler<Matrix> handler = keep_tensor(call);
  StageState& st = stages_[s];
  const int step = st.steps_done;
  if (grad == nullptr) {
    return reject(std::move(handler), s,
                  fmt::format("backward(micro_batch {}) of an empty tensor", mb));
  }
  auto stash = st.stashes.find(mb);
  if (stash == st.stashes.end()) {
    return reject(std::move(handler), s,
                  fmt::format("backward(micro_batch {}) without its forward on this stage", mb));
  }
  if (grad->cols() != shape_.widths[s + 1] || grad->rows() != shape_.rows) {
    return reject(std::move(handler), s,
                  fmt::format("backward(micro_batch {}) got a {}x{} gradient, the layer's output "
                              "is {}x{}",
                              mb, grad->rows(), grad->cols(), shape_.rows, shape_.widths[s + 1]));
  }
  ++st.backwards[mb];
  Matrix dx = model::backward(layers_[s], stash->second, *grad, st.gradient_sum);
  st.stashes.erase(stash);
  // The stash is freed when the backward ends, not when it starts.
  Tensors::start(sim_, *st.device, {"backward", fmt::format("step {}, mb {}", step, mb), 'B'},
                 sim::from_ms(scenario_.backward_ms[s]), std::move(handler), {std::move(dx)},
                 sim::Cancellable::no, [pool = st.stash_pool](sim::OpStatus) { pool->release(1); });
}

void State::check_step_complete(int s) {
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

void State::start(const wire::OptimizerStep& args, worlds::Serving& call) {
  const int s = args.stage;
  Handler<> handler = call.reply();
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
                 sim::from_ms(scenario_.optimizer_ms), std::move(handler), {});
  ++st.steps_done;
}

std::string State::unapplied_work() const {
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

std::string State::outstanding() const {
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

}  // namespace overlap::pipeline::detail
