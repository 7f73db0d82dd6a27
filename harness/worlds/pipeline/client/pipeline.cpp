// The submission's side of the pipeline world: Pipeline and Stage as calls to the judge
// (../wire.hpp). Sizes come from the hello; tensors are handles whose shapes the judge sends.
#include <memory>
#include <overlap/pipeline.hpp>
#include <vector>

#include "../../../client/actor.hpp"
#include "../../../client/call.hpp"
#include "../wire.hpp"

namespace overlap::pipeline {

using client::Connection;
using overlap::detail::HandleAccess;

namespace detail {

class Client {
 public:
  explicit Client(protocol::Reader& hello)
      : stages(static_cast<int>(hello.integer())),
        micro_batches(static_cast<int>(hello.integer())),
        steps(static_cast<int>(hello.integer())),
        rows(static_cast<int>(hello.integer())) {
    for (int s = 0; s < stages; ++s) stash_budgets.push_back(static_cast<int>(hello.integer()));
    for (int s = 0; s <= stages; ++s) widths.push_back(static_cast<int>(hello.integer()));
    pipeline.reset(new Pipeline(*this));
  }

  const int stages, micro_batches, steps, rows;
  std::vector<int> stash_budgets, widths;
  std::unique_ptr<Pipeline> pipeline;
};

}  // namespace detail

Pipeline::Pipeline(detail::Client& client) : client_(&client) {
  for (int s = 0; s < client.stages; ++s) stages_.push_back(Stage(client, s));
}

int Pipeline::micro_batches() const { return client_->micro_batches; }
int Pipeline::steps() const { return client_->steps; }
int Pipeline::stash_budget(int stage) const { return client_->stash_budgets.at(stage); }

Tensor Pipeline::input(int step, int micro_batch) const {
  const auto number = client::call_now(
      client::request(wire::input, "Pipeline::input").integer(step).integer(micro_batch));
  return HandleAccess::make<Tensor>(number, client_->rows, client_->widths.front());
}

Tensor Pipeline::loss_gradient(int step, int micro_batch, const Tensor& output) const {
  const auto number =
      client::call_now(client::request(wire::loss_gradient, "Pipeline::loss_gradient")
                           .integer(step)
                           .integer(micro_batch)
                           .integer(HandleAccess::number(output)));
  return HandleAccess::make<Tensor>(number, output.rows(), output.cols());
}

void Stage::start_forward(int mb, Tensor x, Handler<Tensor> handler) {
  client::call(client::request(wire::forward, "Stage::forward")
                   .integer(index_)
                   .integer(mb)
                   .integer(HandleAccess::number(x)),
               std::move(handler), client::read_handle<Tensor, int, int>);
}

void Stage::start_backward(int mb, Tensor grad, Handler<Tensor> handler) {
  client::call(client::request(wire::backward, "Stage::backward")
                   .integer(index_)
                   .integer(mb)
                   .integer(HandleAccess::number(grad)),
               std::move(handler), client::read_handle<Tensor, int, int>);
}

void Stage::start_optimizer_step(Handler<> handler) {
  client::call(client::request(wire::optimizer_step, "Stage::optimizer_step").integer(index_),
               std::move(handler));
}

}  // namespace overlap::pipeline

template <>
void overlap::client::start(const Entry<pipeline::Pipeline>& entry) {
  static pipeline::detail::Client world(Connection::get().hello());
  run(entry, {world.pipeline.get()});
}
