// The submission's side of the grad-accum world: Trainer, Worker and Validator as calls to the
// judge (../wire.hpp). The parameters come from the hello, the step from every batch's state;
// weights, gradients, snapshots and checkpoints are handles whose facts the judge sends.
#include <atomic>
#include <memory>
#include <overlap/grad_accum.hpp>
#include <vector>

#include "../../../client/actor.hpp"
#include "../../../client/call.hpp"
#include "../wire.hpp"

namespace overlap::grad_accum {

using client::handle;
using overlap::detail::HandleAccess;

namespace detail {

class Client {
 public:
  Client() : trainer(new Trainer(*this)) {
    // Trainer::step() between batches: the judge's step once the batch's events have fired,
    // before any of its completions runs.
    client::on_state<wire::State>(
        [this](const wire::State& state) { step.store(state.step, std::memory_order_relaxed); });
  }

  const wire::Hello hello = client::read_hello<wire::Hello>();
  // No optimizer step before the first batch. Atomic, as every value read for free: a read from
  // anywhere sees the old step or the new one.
  std::atomic<int> step{0};
  std::unique_ptr<Trainer> trainer;
};

}  // namespace detail

Trainer::Trainer(detail::Client& client) : client_(&client) {
  for (std::size_t w = 0; w < client.hello.worker_ms.size(); ++w) {
    workers_.push_back(Worker(client, static_cast<int>(w)));
  }
  for (int v = 0; v < client.hello.validators; ++v) validators_.push_back(Validator(client, v));
}

int Trainer::micro_batches_per_step() const { return client_->hello.micro_batches; }
int Trainer::validate_every() const { return client_->hello.validate_every; }
int Trainer::snapshot_slots() const { return client_->hello.snapshot_slots; }
int Trainer::patience() const { return client_->hello.patience; }
double Trainer::min_delta() const { return client_->hello.min_delta; }
int Trainer::max_steps() const { return client_->hello.max_steps; }
int Trainer::step() const { return client_->step.load(std::memory_order_relaxed); }

Weights Trainer::weights() const {
  const auto number = client::call(wire::Weights{});
  return HandleAccess::make<Weights>(number, client_->step.load(std::memory_order_relaxed));
}

Snapshot Trainer::snapshot() {
  const auto number = client::call(wire::Snapshot{});
  return HandleAccess::make<Snapshot>(number, client_->step.load(std::memory_order_relaxed));
}

void Trainer::stop(const Checkpoint& best) { client::call(wire::Stop{handle(best)}); }

void Trainer::start_apply(std::vector<Gradient> gradients, Handler<> handler) {
  wire::Apply apply;
  for (const Gradient& g : gradients) apply.gradients.push_back(handle(g));
  client::call(apply, std::move(handler));
}

double Worker::ms_per_gradient() const { return client_->hello.worker_ms[index_]; }

void Worker::start_compute(Weights weights, int mb, Handler<Gradient> handler) {
  client::call(wire::Compute{index_, handle(weights), mb}, std::move(handler));
}

void Validator::start_validate(Snapshot snapshot, Handler<Checkpoint> handler) {
  client::call(wire::Validate{index_, handle(snapshot)}, std::move(handler));
}

}  // namespace overlap::grad_accum

template <>
void overlap::client::start(const Entry<grad_accum::Trainer>& entry) {
  static grad_accum::detail::Client world;
  run(entry, {world.trainer.get()});
}
