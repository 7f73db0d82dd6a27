// Starting a registered submission on a simulator, in whichever form it was written.
#pragma once

#include <overlap/train.hpp>
#include <vector>

#include "../../core/actor.hpp"
#include "run_record.hpp"

namespace overlap::worlds {

template <typename Api>
void launch(sim::Simulator& sim, const Entry<Api>& entry, Api& api, sim::Done done) {
  if (entry.blocking) {
    sim::spawn_actor(
        sim, [&api, train = entry.blocking] { train(api); }, std::move(done));
  } else {
    sim::spawn_coroutine(sim, entry.coroutine(api), std::move(done));
  }
}

// Starts the submission once per actor (the world's API object: one, or one per rank) and runs
// the simulation until every actor has returned, one has thrown, or nothing more can happen;
// or until 20 times the baseline's virtual time, or 5 million events, have gone by.
template <typename Api>
RunOutcome run_submission(sim::Simulator& sim, const Entry<Api>& entry,
                          const std::vector<Api*>& actors, double baseline_ms) {
  sim.set_limits(sim::ms(20 * baseline_ms), 5'000'000);
  RunOutcome outcome;
  std::size_t returned = 0;
  for (Api* actor : actors) {
    launch(sim, entry, *actor, [&](std::exception_ptr e) {
      ++returned;
      if (e && !outcome.thrown) outcome.thrown = e;
    });
  }
  outcome.end = sim.run([&] { return returned == actors.size() || outcome.thrown; });
  outcome.returned = returned == actors.size();
  return outcome;
}

}  // namespace overlap::worlds
