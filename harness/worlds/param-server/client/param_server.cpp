// The submission's side of the param-server world: Cluster, Worker and ParameterServer as calls
// to the judge (../wire.hpp). Sizes and speeds come from the hello; weights and gradients are
// handles whose facts the judge sends; the version and the failed workers are the judge's, as of
// its last batch (they change at events only, never inside a call).
#include <algorithm>
#include <memory>
#include <overlap/param_server.hpp>
#include <tuple>
#include <vector>

#include "../../../client/actor.hpp"
#include "../../../client/call.hpp"
#include "../wire.hpp"

namespace overlap::param_server {

using client::Connection;
using overlap::detail::HandleAccess;

namespace detail {

class Client {
 public:
  explicit Client(protocol::Reader& hello)
      : workers(static_cast<int>(hello.integer())),
        mini_batches(static_cast<int>(hello.integer())),
        staleness_bound(static_cast<int>(hello.integer())) {
    for (int w = 0; w < workers; ++w) ms_per_gradient.push_back(hello.real());
    failed.assign(workers, false);
    cluster.reset(new Cluster(*this));
  }

  // The values read for free, from the judge's state frame (../wire.hpp).
  void read_state(protocol::Reader& state) {
    version = static_cast<int>(state.integer());
    for (int w = 0; w < workers; ++w) failed[w] = state.integer(0, 1, "failed") != 0;
    state.end();
  }

  const int workers, mini_batches, staleness_bound;
  std::vector<double> ms_per_gradient;
  int version = 0;
  std::vector<bool> failed;
  std::unique_ptr<Cluster> cluster;
};

}  // namespace detail

Cluster::Cluster(detail::Client& client) : client_(&client), server_(client) {
  for (int w = 0; w < client.workers; ++w) workers_.push_back(Worker(client, w));
}

int Cluster::mini_batches() const { return client_->mini_batches; }
int Cluster::staleness_bound() const { return client_->staleness_bound; }

void Cluster::run_parallel(int n, const std::function<void(int)>& body) {
  client::fork_join(n, body);
}

double Worker::ms_per_gradient() const { return client_->ms_per_gradient.at(index_); }
bool Worker::failed() const { return client_->failed.at(index_); }

void Worker::start_pull(Handler<Weights> handler) {
  client::call(client::request(wire::pull, "Worker::pull").integer(index_), std::move(handler),
               client::read_handle<Weights, int, int>);
}

void Worker::start_compute(Weights weights, int mb, Handler<Gradient> handler) {
  client::call(client::request(wire::compute, "Worker::compute")
                   .integer(index_)
                   .integer(HandleAccess::number(weights))
                   .integer(mb),
               std::move(handler), client::read_handle<Gradient, int, int, int>);
}

void Worker::start_push(Gradient gradient, Handler<> handler) {
  client::call(client::request(wire::push, "Worker::push")
                   .integer(index_)
                   .integer(HandleAccess::number(gradient)),
               std::move(handler));
}

int ParameterServer::version() const { return client_->version; }

void ParameterServer::start_apply_average(std::vector<Gradient> gradients, Handler<> handler) {
  // The world reads the list in order and ends the call at the first empty gradient, repeated
  // worker or failed worker; among W + 1 gradients there is always an empty one or a repeated
  // worker. So the first W + 1 decide and only they go (a frame holds some 7,000 handles).
  const std::size_t sent = std::min<std::size_t>(gradients.size(), client_->workers + 1);
  protocol::Writer call = client::request(wire::apply_average, "ParameterServer::apply_average");
  call.integer(static_cast<std::int64_t>(sent));
  for (std::size_t i = 0; i < sent; ++i) call.integer(HandleAccess::number(gradients[i]));
  client::call(call, std::move(handler));
}

}  // namespace overlap::param_server

template <>
void overlap::client::start(const Entry<param_server::Cluster>& entry) {
  Connection& connection = Connection::get();
  static param_server::detail::Client world(connection.hello());
  connection.add_category(param_server::category());
  connection.on_state([](protocol::Reader& state) { world.read_state(state); });
  run(entry, {world.cluster.get()});
}
