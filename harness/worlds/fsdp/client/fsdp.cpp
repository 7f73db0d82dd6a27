// The submission's side of the fsdp world: each Rank's operations as calls to the judge
// (../wire.hpp), each naming its rank. Sizes and buffer counts come from the hello.
#include <memory>
#include <overlap/fsdp.hpp>
#include <vector>

#include "../../../client/actor.hpp"
#include "../../../client/call.hpp"
#include "../wire.hpp"

namespace overlap::fsdp {

namespace detail {

class Client {
 public:
  Client() {
    for (int r = 0; r < hello.ranks; ++r) rank_objects.emplace_back(new Rank(*this, r));
  }

  std::vector<Rank*> actors() const {
    std::vector<Rank*> out;
    for (const auto& rank : rank_objects) out.push_back(rank.get());
    return out;
  }

  const wire::Hello hello = client::read_hello<wire::Hello>();
  std::vector<std::unique_ptr<Rank>> rank_objects;
};

}  // namespace detail

int Rank::num_ranks() const { return client_->hello.ranks; }
int Rank::num_layers() const { return client_->hello.layers; }
int Rank::param_buffers() const { return client_->hello.param_buffers; }
int Rank::grad_buffers() const { return client_->hello.grad_buffers; }

void Rank::start_copy_in(int layer, Handler<> h) {
  client::call(wire::CopyIn{index_, layer}, std::move(h));
}
void Rank::start_all_gather(int layer, Handler<> h) {
  client::call(wire::AllGather{index_, layer}, std::move(h));
}
void Rank::start_forward(int layer, Handler<> h) {
  client::call(wire::Forward{index_, layer}, std::move(h));
}
void Rank::start_backward(int layer, Handler<> h) {
  client::call(wire::Backward{index_, layer}, std::move(h));
}
void Rank::start_reduce_scatter(int layer, Handler<> h) {
  client::call(wire::ReduceScatter{index_, layer}, std::move(h));
}
void Rank::start_optimizer_step(int, Handler<> h) {
  client::call(wire::OptimizerStep{index_}, std::move(h));
}

void Rank::release(int layer) { client::call(wire::Release{index_, layer}); }

}  // namespace overlap::fsdp

template <>
void overlap::client::start(const Entry<fsdp::Rank>& entry) {
  static fsdp::detail::Client world;
  run(entry, world.actors());
}
