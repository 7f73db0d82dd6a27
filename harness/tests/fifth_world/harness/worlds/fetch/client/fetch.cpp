// The submission's side of the fetch world: Source's operation as a call to the judge
// (../wire.hpp). The sizes come from the hello.
#include <memory>
#include <overlap/fetch.hpp>

#include "../../../client/actor.hpp"
#include "../../../client/call.hpp"
#include "../wire.hpp"

namespace overlap::fetch {

namespace detail {

class Client {
 public:
  Client() : source(new Source(*this)) {}

  const wire::Hello hello = client::read_hello<wire::Hello>();
  std::unique_ptr<Source> source;
};

}  // namespace detail

int Source::num_shards() const { return client_->hello.shards; }
int Source::num_links() const { return client_->hello.links; }

void Source::start_fetch(int shard, Handler<> handler) {
  client::call(wire::Fetch{shard}, std::move(handler));
}

}  // namespace overlap::fetch

template <>
void overlap::client::start(const Entry<fetch::Source>& entry) {
  static fetch::detail::Client world;
  run(entry, {world.source.get()});
}
