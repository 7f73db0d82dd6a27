// The submission's side of the grad-accum world: Trainer, Worker and Validator as calls to the
// judge (../wire.hpp). The parameters come from the hello, the step from every batch's state;
// weights, gradients, snapshots and checkpoints are handles whose facts the judge sends.
#include <memory>
#include <overlap/grad_accum.hpp>
#include <tuple>
#include <vector>

#include "../../../client/actor.hpp"
#include "../../../client/call.hpp"
#include "../wire.hpp"

namespace overlap::grad_accum {

using client::Connection;
using overlap::detail::HandleAccess;

namespace detail {

class Client {
 public:
  explicit Client(protocol::Reader& hello)
      : micro_batches(static_cast<int>(hello.integer())),
        validate_every(static_cast<int>(hello.integer())),
        snapshot_slots(static_cast<int>(hello.integer())),
        patience(static_cast<int>(hello.integer())),
        min_delta(hello.real()),
        max_steps(static_cast<int>(hello.integer())),
        validators(static_cast<int>(hello.integer())) {
    const auto workers = hello.integer();
    for (std::int64_t w = 0; w < workers; ++w) worker_ms.push_back(hello.real());
    hello.end();
    trainer.reset(new Trainer(*this));
    // Trainer::step() between batches: the judge's step once the batch's events have fired,
    // before any of its completions runs.
    Connection::get().on_state(
        [this](protocol::Reader& state) { step = static_cast<int>(state.integer()); });
  }

  const int micro_batches, validate_every, snapshot_slots, patience;
  const double min_delta;
  const int max_steps, validators;
  std::vector<double> worker_ms;
  int step = 0;  // no optimizer step before the first batch
  std::unique_ptr<Trainer> trainer;
};

}  // namespace detail

Trainer::Trainer(detail::Client& client) : client_(&client) {
  for (std::size_t w = 0; w < client.worker_ms.size(); ++w) {
    workers_.push_back(Worker(client, static_cast<int>(w)));
  }
  for (int v = 0; v < client.validators; ++v) validators_.push_back(Validator(client, v));
}

int Trainer::micro_batches_per_step() const { return client_->micro_batches; }
int Trainer::validate_every() const { return client_->validate_every; }
int Trainer::snapshot_slots() const { return client_->snapshot_slots; }
int Trainer::patience() const { return client_->patience; }
double Trainer::min_delta() const { return client_->min_delta; }
int Trainer::max_steps() const { return client_->max_steps; }
int Trainer::step() const { return client_->step; }

Weights Trainer::weights() const {
  const auto number = client::call_now(client::request(wire::weights, "Trainer::weights"));
  return HandleAccess::make<Weights>(number, client_->step);
}

Snapshot Trainer::snapshot() {
  const auto number = client::call_now(client::request(wire::snapshot, "Trainer::snapshot"));
  return HandleAccess::make<Snapshot>(number, client_->step);
}

void Trainer::stop(const Checkpoint& best) {
  client::call_now(
      client::request(wire::stop, "Trainer::stop").integer(HandleAccess::number(best)));
}

void Trainer::start_apply(std::vector<Gradient> gradients, Handler<> handler) {
  protocol::Writer w = client::request(wire::apply, "Trainer::apply");
  w.integer(static_cast<std::int64_t>(gradients.size()));
  for (const Gradient& g : gradients) w.integer(HandleAccess::number(g));
  client::call(w, std::move(handler));
}

double Worker::ms_per_gradient() const { return client_->worker_ms[index_]; }

void Worker::start_compute(Weights weights, int mb, Handler<Gradient> handler) {
  client::call(client::request(wire::compute, "Worker::compute")
                   .integer(index_)
                   .integer(HandleAccess::number(weights))
                   .integer(mb),
               std::move(handler), client::read_handle<Gradient, int, int>);
}

void Validator::start_validate(Snapshot snapshot, Handler<Checkpoint> handler) {
  client::call(client::request(wire::validate, "Validator::validate")
                   .integer(index_)
                   .integer(HandleAccess::number(snapshot)),
               std::move(handler), client::read_handle<Checkpoint, int, double>);
}

}  // namespace overlap::grad_accum

template <>
void overlap::client::start(const Entry<grad_accum::Trainer>& entry) {
  static grad_accum::detail::Client world(Connection::get().hello());
  run(entry, {world.trainer.get()});
}
