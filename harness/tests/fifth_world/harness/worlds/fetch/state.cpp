#include "state.hpp"

#include <fmt/format.h>

#include "../../sim/operation.hpp"

namespace overlap::fetch::detail {

State::State(const Scenario& scenario, sim::Simulator& sim)
    : scenario_(scenario), sim_(sim), fetched_(scenario.shards, 0) {
  for (int l = 0; l < scenario.links; ++l)
    links_.push_back(&sim.add_device(fmt::format("link {}", l)));
}

void State::start(const wire::Fetch& args, worlds::Serving& call) {
  const int shard = args.shard;
  Handler<> handler = call.reply();
  if (shard < 0 || shard >= scenario_.shards) {
    return sim::reject(
        sim_, std::move(handler),
        fmt::format("fetch(shard {}) is out of range [0, {})", shard, scenario_.shards));
  }
  // A busy link is the simulator's contention violation; the fetch still runs.
  sim::Operation<>::start(sim_, *links_[shard % scenario_.links],
                          {"fetch", fmt::format("shard {}", shard), 'F'},
                          sim::from_ms(scenario_.fetch_ms), std::move(handler), {},
                          sim::Cancellable::no, [this, shard](sim::OpStatus status) {
                            if (status == sim::OpStatus::done) ++fetched_[shard];
                          });
}

}  // namespace overlap::fetch::detail
