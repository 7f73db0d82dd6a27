// The submission's side of the fsdp world: each Rank's operations as calls to the judge
// (../wire.hpp), each naming its rank. Sizes and buffer counts come from the hello.
#include <memory>
#include <overlap/fsdp.hpp>
#include <vector>

#include "../../../client/actor.hpp"
#include "../../../client/call.hpp"
#include "../wire.hpp"

namespace overlap::fsdp {

using client::Connection;

namespace detail {

class Client {
 public:
  explicit Client(protocol::Reader& hello)
      : ranks(static_cast<int>(hello.integer())),
        layers(static_cast<int>(hello.integer())),
        param_buffers(static_cast<int>(hello.integer())),
        grad_buffers(static_cast<int>(hello.integer())) {
    for (int r = 0; r < ranks; ++r) rank_objects.emplace_back(new Rank(*this, r));
  }

  std::vector<Rank*> actors() const {
    std::vector<Rank*> out;
    for (const auto& rank : rank_objects) out.push_back(rank.get());
    return out;
  }

  const int ranks, layers, param_buffers, grad_buffers;
  std::vector<std::unique_ptr<Rank>> rank_objects;
};

}  // namespace detail

namespace {

// A call of rank `rank`: the operation code, then the rank; the caller appends the rest.
protocol::Writer request(wire::Op op, const char* name, int rank) {
  protocol::Writer w = client::request(op, name);
  w.integer(rank);
  return w;
}

}  // namespace

int Rank::num_ranks() const { return client_->ranks; }
int Rank::num_layers() const { return client_->layers; }
int Rank::param_buffers() const { return client_->param_buffers; }
int Rank::grad_buffers() const { return client_->grad_buffers; }

void Rank::start_copy_in(int layer, Handler<> h) {
  client::call(request(wire::copy_in, "Rank::copy_in", index_).integer(layer), std::move(h));
}
void Rank::start_all_gather(int layer, Handler<> h) {
  client::call(request(wire::all_gather, "Rank::all_gather", index_).integer(layer), std::move(h));
}
void Rank::start_forward(int layer, Handler<> h) {
  client::call(request(wire::forward, "Rank::forward", index_).integer(layer), std::move(h));
}
void Rank::start_backward(int layer, Handler<> h) {
  client::call(request(wire::backward, "Rank::backward", index_).integer(layer), std::move(h));
}
void Rank::start_reduce_scatter(int layer, Handler<> h) {
  client::call(request(wire::reduce_scatter, "Rank::reduce_scatter", index_).integer(layer),
               std::move(h));
}
void Rank::start_optimizer_step(int, Handler<> h) {
  client::call(request(wire::optimizer_step, "Rank::optimizer_step", index_), std::move(h));
}

void Rank::release(int layer) {
  client::call_now(request(wire::release, "Rank::release", index_).integer(layer));
}

}  // namespace overlap::fsdp

template <>
void overlap::client::start(const Entry<fsdp::Rank>& entry) {
  static fsdp::detail::Client world(Connection::get().hello());
  run(entry, world.actors());
}
