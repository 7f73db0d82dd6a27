// The submission's side of the fetch world: Source's operation as a call to the judge
// (../wire.hpp). The sizes come from the hello.
#include <memory>
#include <overlap/fetch.hpp>

#include "../../../client/actor.hpp"
#include "../../../client/call.hpp"
#include "../wire.hpp"

namespace overlap::fetch {

using client::Connection;

namespace detail {

class Client {
 public:
  explicit Client(protocol::Reader& hello)
      : shards(static_cast<int>(hello.integer())),
        links(static_cast<int>(hello.integer())),
        source(new Source(*this)) {}

  const int shards, links;
  std::unique_ptr<Source> source;
};

}  // namespace detail

int Source::num_shards() const { return client_->shards; }
int Source::num_links() const { return client_->links; }

void Source::start_fetch(int shard, Handler<> handler) {
  client::call(client::request(wire::fetch, "Source::fetch").integer(shard), std::move(handler));
}

}  // namespace overlap::fetch

template <>
void overlap::client::start(const Entry<fetch::Source>& entry) {
  static fetch::detail::Client world(Connection::get().hello());
  run(entry, {world.source.get()});
}
