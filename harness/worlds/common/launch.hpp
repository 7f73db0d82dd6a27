// Starting a registered submission on a simulator, in whichever form it was written.
#pragma once

#include <overlap/train.hpp>

#include "../../core/actor.hpp"

namespace overlap::worlds {

template <typename World>
void launch(sim::Simulator& sim, const Entry<World>& entry, World& world, sim::Done done) {
  if (entry.blocking) {
    sim::spawn_actor(
        sim, [&world, train = entry.blocking] { train(world); }, std::move(done));
  } else {
    sim::spawn_coroutine(sim, entry.coroutine(world), std::move(done));
  }
}

}  // namespace overlap::worlds
