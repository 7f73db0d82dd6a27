// The submission's side of the param-server world: Cluster, Worker and ParameterServer as calls
// to the judge (../wire.hpp). Sizes and speeds come from the hello; weights and gradients are
// handles whose facts the judge sends; the version and the failed workers are the judge's, as of
// its last batch (they change at events only, never inside a call).
#include <algorithm>
#include <atomic>
#include <memory>
#include <overlap/param_server.hpp>
#include <vector>

#include "../../../client/actor.hpp"
#include "../../../client/call.hpp"
#include "../wire.hpp"

namespace overlap::param_server {

using client::handle;

namespace detail {

class Client {
 public:
  Client() : cluster(new Cluster(*this)) {}

  const wire::Hello hello = client::read_hello<wire::Hello>();
  // The values read for free, as of the last batch. Updated in place, never reallocated, each a
  // lock-free atomic: a read from anywhere (a signal handler that samples progress included)
  // sees the old value or the new one, never memory being freed.
  std::atomic<int> version{0};
  const std::unique_ptr<std::atomic<bool>[]> failed { new std::atomic<bool>[hello.workers()] {} };
  std::unique_ptr<Cluster> cluster;

  void update(const wire::State& state) {
    version.store(state.version, std::memory_order_relaxed);
    const std::size_t workers = std::min<std::size_t>(state.failed.size(), hello.workers());
    for (std::size_t w = 0; w < workers; ++w) {
      failed[w].store(state.failed[w], std::memory_order_relaxed);
    }
  }
};

}  // namespace detail

Cluster::Cluster(detail::Client& client) : client_(&client), server_(client) {
  for (int w = 0; w < client.hello.workers(); ++w) workers_.push_back(Worker(client, w));
}

int Cluster::mini_batches() const { return client_->hello.mini_batches; }
int Cluster::staleness_bound() const { return client_->hello.staleness_bound; }

void Cluster::run_parallel(int n, const std::function<void(int)>& body) {
  client::fork_join(n, body);
}

double Worker::ms_per_gradient() const { return client_->hello.ms_per_gradient.at(index_); }
bool Worker::failed() const { return client_->failed[index_].load(std::memory_order_relaxed); }

void Worker::start_pull(Handler<Weights> handler) {
  client::call(wire::Pull{index_}, std::move(handler));
}

void Worker::start_compute(Weights weights, int mb, Handler<Gradient> handler) {
  client::call(wire::Compute{index_, handle(weights), mb}, std::move(handler));
}

void Worker::start_push(Gradient gradient, Handler<> handler) {
  client::call(wire::Push{index_, handle(gradient)}, std::move(handler));
}

int ParameterServer::version() const { return client_->version.load(std::memory_order_relaxed); }

void ParameterServer::start_apply_average(std::vector<Gradient> gradients, Handler<> handler) {
  // The world reads the list in order and ends the call at the first empty gradient, repeated
  // worker or failed worker; among W + 1 gradients there is always an empty one or a repeated
  // worker. So the first W + 1 decide and only they go (a frame holds some 7,000 handles).
  const std::size_t sent = std::min<std::size_t>(gradients.size(), client_->hello.workers() + 1);
  wire::ApplyAverage call;
  for (std::size_t i = 0; i < sent; ++i) call.gradients.push_back(handle(gradients[i]));
  client::call(call, std::move(handler));
}

}  // namespace overlap::param_server

template <>
void overlap::client::start(const Entry<param_server::Cluster>& entry) {
  static param_server::detail::Client world;
  Connection::get().add_category(param_server::category());
  on_state<param_server::wire::State>(
      [](const param_server::wire::State& state) { world.update(state); });
  run(entry, {world.cluster.get()});
}
