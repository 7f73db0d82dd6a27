#include "state.hpp"

#include <fmt/format.h>

#include <overlap/param_server.hpp>  // its errors only: errc::worker_failed
#include <set>

#include "../../sim/operation.hpp"

namespace overlap::param_server::detail {

using WeightsOp = sim::Operation<WeightsObject>;
using GradientOp = sim::Operation<GradientObject>;
using DoneOp = sim::Operation<>;

State::State(const Scenario& scenario, sim::Simulator& sim)
    : scenario_(scenario),
      sim_(sim),
      data_{scenario.seed, scenario.mini_batches},
      weights_(model::initial_weights()),
      times_applied_(scenario.mini_batches, 0),
      started_(scenario.mini_batches, false) {
  server_ = &sim.add_device("server");
  for (int w = 0; w < scenario.workers(); ++w) {
    WorkerState worker;
    worker.device = &sim.add_device(fmt::format("worker {}", w));
    workers_.push_back(std::move(worker));
  }
  // Scheduled first, so that a failure at t comes before anything else ending at t.
  for (const Failure& f : scenario.failures) {
    sim.schedule(sim::from_ms(f.at_ms), [this, w = f.worker] { fail_worker(w); });
  }
}

void State::fail_worker(int w) {
  workers_[w].failed = true;
  failures_seen_.push_back({w, sim_.now(), workers_[w].activity, pool_dry_at_ >= 0});
  // Moved out first: ending the operation clears the worker's abort.
  if (auto abort = std::move(workers_[w].abort)) abort();
}

template <typename Handler>
void State::refuse_failed(Handler handler) {
  sim::complete_now(sim_, std::move(handler), make_error_code(errc::worker_failed));
}

void State::start(const wire::Pull& args, worlds::Serving& call) {
  const int w = args.worker;
  Handler<WeightsObject> handler = call.keep(pulled_, [](const WeightsObject& weights) {
    return wire::WeightsFacts{weights.version, weights.worker};
  });
  WorkerState& worker = workers_[w];
  if (worker.failed) return refuse_failed(std::move(handler));
  WeightsObject weights{weights_, version_, w};
  auto op = WeightsOp::start(sim_, *worker.device, {"pull", fmt::format("v{}", version_), 'p'},
                             sim::from_ms(scenario_.pull_ms), std::move(handler),
                             {std::move(weights)}, sim::Cancellable::no, [this, w](sim::OpStatus) {
                               workers_[w].abort = nullptr;
                               end(w);
                             });
  begin(w, Activity::pull);
  worker.abort = [op] { WeightsOp::fail(op, make_error_code(errc::worker_failed)); };
}

void State::start(const wire::Compute& args, worlds::Serving& call) {
  const int w = args.worker, mb = args.mini_batch;
  const WeightsObject weights =
      pulled_.take(call.handle(args.weights, "weights"), "weights").value_or(WeightsObject{});
  Handler<GradientObject> handler = call.keep(gradients_, [](const GradientObject& g) {
    return wire::GradientFacts{g.mini_batch, g.version, g.worker};
  });
  WorkerState& worker = workers_[w];
  if (worker.failed) return refuse_failed(std::move(handler));
  if (weights.worker != w) {
    return sim::reject(
        sim_, std::move(handler),
        fmt::format("worker {}: compute() needs weights this worker pulled (these "
                    "are {})",
                    w,
                    weights.worker < 0 ? std::string("empty")
                                       : fmt::format("worker {}'s", weights.worker)));
  }
  if (mb < 0 || mb >= scenario_.mini_batches) {
    return sim::reject(sim_, std::move(handler),
                       fmt::format("worker {}: compute(mini_batch {}) is out of range [0, {})", w,
                                   mb, scenario_.mini_batches));
  }
  GradientObject gradient{model::gradient(data_, weights.values, mb), mb, weights.version, w};
  if (!started_[mb]) {
    started_[mb] = true;
    if (++started_count_ == scenario_.mini_batches) pool_dry_at_ = sim_.now();
  }
  const double duration = compute_ms(scenario_, w, worker.computes++);
  auto op = GradientOp::start(sim_, *worker.device,
                              {"compute", fmt::format("mb {} on v{}", mb, weights.version), 'C'},
                              sim::from_ms(duration), std::move(handler), {std::move(gradient)},
                              sim::Cancellable::no, [this, w](sim::OpStatus status) {
                                workers_[w].abort = nullptr;
                                workers_[w].computed += status == sim::OpStatus::done;
                                end(w);
                              });
  begin(w, Activity::compute);
  worker.abort = [op] { GradientOp::fail(op, make_error_code(errc::worker_failed)); };
}

sim::OpId State::begin_send(int w, const GradientObject& gradient) {
  begin(w, Activity::send);
  return sim_.begin(
      *workers_[w].device,
      {"send", fmt::format("mb {} from v{}", gradient.mini_batch, gradient.version), 's'},
      sim::from_ms(scenario_.apply_ms));
}

void State::start(const wire::Push& args, worlds::Serving& call) {
  const int w = args.worker;
  GradientObject gradient = gradients_.take(call.handle(args.gradient, "gradient"), "gradient")
                                .value_or(GradientObject{});
  Handler<> handler = call.reply();
  if (workers_[w].failed) return refuse_failed(std::move(handler));
  if (gradient.worker != w) {
    return sim::reject(
        sim_, std::move(handler),
        fmt::format("worker {}: push() of a gradient it did not compute ({})", w,
                    gradient.worker < 0 ? std::string("an empty one")
                                        : fmt::format("worker {}'s", gradient.worker)));
  }
  const sim::OpId send = begin_send(w, gradient);
  auto g = std::make_shared<GradientObject>(std::move(gradient));
  DoneOp::start(sim_, *server_,
                {"apply", fmt::format("mb {} from worker {}", g->mini_batch, w), 'A'},
                sim::from_ms(scenario_.apply_ms), std::move(handler), {}, sim::Cancellable::no,
                [this, send, g](sim::OpStatus) {
                  sim_.end(send, sim::OpStatus::done);
                  end(g->worker);
                  apply({g});
                });
}

void State::start(const wire::ApplyAverage& args, worlds::Serving& call) {
  std::vector<GradientObject> gradients;
  for (protocol::Handle h : args.gradients) {
    gradients.push_back(
        gradients_.take(call.handle(h, "gradient"), "gradient").value_or(GradientObject{}));
  }
  Handler<> handler = call.reply();
  std::set<int> senders;
  for (const GradientObject& g : gradients) {
    if (g.worker < 0) {
      return sim::reject(sim_, std::move(handler), "apply_average() of an empty Gradient");
    }
    if (!senders.insert(g.worker).second) {
      return sim::reject(sim_, std::move(handler),
                         fmt::format("apply_average() with two gradients from worker {}: each "
                                     "worker sends one",
                                     g.worker));
    }
    if (workers_[g.worker].failed) return refuse_failed(std::move(handler));
  }
  if (gradients.empty()) {
    return sim::reject(sim_, std::move(handler), "apply_average() of no gradients");
  }
  std::vector<sim::OpId> sends;
  std::vector<std::shared_ptr<GradientObject>> shared;
  for (GradientObject& g : gradients) {
    sends.push_back(begin_send(g.worker, g));
    shared.push_back(std::make_shared<GradientObject>(std::move(g)));
  }
  DoneOp::start(sim_, *server_, {"apply", fmt::format("average of {}", shared.size()), 'A'},
                sim::from_ms(scenario_.apply_ms), std::move(handler), {}, sim::Cancellable::no,
                [this, sends, shared](sim::OpStatus) {
                  for (sim::OpId send : sends) sim_.end(send, sim::OpStatus::done);
                  for (const auto& g : shared) end(g->worker);
                  apply(shared);
                });
}

void State::apply(std::vector<std::shared_ptr<GradientObject>> gradients) {
  Apply entry;
  entry.at = sim_.now();
  entry.version = version_ + 1;
  std::vector<const model::Vector*> values;
  for (const auto& g : gradients) {
    const int staleness = version_ - g->version;
    if (scenario_.staleness_bound >= 0 && staleness > scenario_.staleness_bound) {
      sim_.violations().add(
          "staleness",
          fmt::format("worker {}'s gradient of mini-batch {}, computed on version {}, applied "
                      "at version {}: staleness {} over the bound of {}",
                      g->worker, g->mini_batch, g->version, version_, staleness,
                      scenario_.staleness_bound),
          sim_.now());
    }
    if (++times_applied_[g->mini_batch] == 2) {
      sim_.violations().add(
          "duplicate-update",
          fmt::format("mini-batch {} applied a second time (worker {})", g->mini_batch, g->worker),
          sim_.now());
    }
    ++workers_[g->worker].applied;
    entry.mini_batches.push_back(g->mini_batch);
    entry.staleness.push_back(staleness);
    entry.gradients.push_back(g->values);
    values.push_back(&g->values);
  }
  model::apply(weights_, values);
  ++version_;
  applies_.push_back(std::move(entry));
}

std::vector<int> State::mini_batches_per_worker() const {
  std::vector<int> out;
  for (const WorkerState& w : workers_) out.push_back(w.applied);
  return out;
}

std::vector<int> State::kept_off_tail() const {
  std::vector<int> out;
  if (pool_dry_at_ < 0) return out;
  for (std::size_t w = 0; w < workers_.size(); ++w) {
    const WorkerState& x = workers_[w];
    if (!x.failed && x.activity == Activity::idle && x.last == Activity::send &&
        x.last_end < pool_dry_at_) {
      out.push_back(static_cast<int>(w));
    }
  }
  return out;
}

int State::refused_gradients() const {
  int refused = 0;
  for (const WorkerState& x : workers_) {
    if (!x.failed) refused += x.computed - x.applied;
  }
  return refused;
}

std::string State::outstanding() const {
  int applied = 0;
  for (int n : times_applied_) applied += n > 0;
  std::vector<std::string> failed;
  for (std::size_t w = 0; w < workers_.size(); ++w) {
    if (workers_[w].failed) failed.push_back(fmt::format("worker {}", w));
  }
  return fmt::format("{} of {} mini-batches applied (server at version {}){}", applied,
                     scenario_.mini_batches, version_,
                     failed.empty() ? "" : fmt::format("; failed: {}", fmt::join(failed, ", ")));
}

}  // namespace overlap::param_server::detail
