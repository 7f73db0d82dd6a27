// The submission's side of the pipeline world: Pipeline and Stage as calls to the judge
// (../wire.hpp). Sizes come from the hello; tensors are handles whose shapes the judge sends.
#include <memory>
#include <overlap/pipeline.hpp>

#include "../../../client/actor.hpp"
#include "../../../client/call.hpp"
#include "../wire.hpp"

namespace overlap::pipeline {

using client::handle;
using overlap::detail::HandleAccess;

namespace detail {

class Client {
 public:
  Client() : pipeline(new Pipeline(*this)) {}

  const wire::Hello hello = client::read_hello<wire::Hello>();
  std::unique_ptr<Pipeline> pipeline;
};

}  // namespace detail

Pipeline::Pipeline(detail::Client& client) : client_(&client) {
  for (int s = 0; s < client.hello.stages(); ++s) stages_.push_back(Stage(client, s));
}

int Pipeline::micro_batches() const { return client_->hello.micro_batches; }
int Pipeline::steps() const { return client_->hello.steps; }
int Pipeline::stash_budget(int stage) const { return client_->hello.stash_budgets.at(stage); }

Tensor Pipeline::input(int step, int micro_batch) const {
  const auto number = client::call(wire::Input{step, micro_batch});
  return HandleAccess::make<Tensor>(number, client_->hello.rows, client_->hello.widths.front());
}

Tensor Pipeline::loss_gradient(int step, int micro_batch, const Tensor& output) const {
  const auto number = client::call(wire::LossGradient{step, micro_batch, handle(output)});
  return HandleAccess::make<Tensor>(number, output.rows(), output.cols());
}

void Stage::start_forward(int mb, Tensor x, Handler<Tensor> handler) {
  client::call(wire::Forward{index_, mb, handle(x)}, std::move(handler));
}

void Stage::start_backward(int mb, Tensor grad, Handler<Tensor> handler) {
  client::call(wire::Backward{index_, mb, handle(grad)}, std::move(handler));
}

void Stage::start_optimizer_step(Handler<> handler) {
  client::call(wire::OptimizerStep{index_}, std::move(handler));
}

}  // namespace overlap::pipeline

template <>
void overlap::client::start(const Entry<pipeline::Pipeline>& entry) {
  static pipeline::detail::Client world;
  run(entry, {world.pipeline.get()});
}
