// One run of a submission program against a world, in lock-step (protocol/frames.hpp): the judge
// applies each batch of requests at the current instant, then answers with the completions due
// now, else moves the clock to the next instant that has some.
#pragma once

#include <functional>
#include <span>

#include "../../protocol/frames.hpp"
#include "../../protocol/message.hpp"
#include "../../sim/simulator.hpp"
#include "link.hpp"
#include "remote.hpp"
#include "run_record.hpp"

namespace overlap::worlds {

struct LockStep {
  int actors = 1;                                   // train runs once per actor
  std::span<const protocol::Operation> operations;  // the world's API, by code (wire.hpp)
  std::function<void(Call&)> serve;                 // applies one call to the world
  std::function<void(protocol::Writer&)> state;     // the values the submission reads for free
};

// Sends `hello`, then serves the program until every actor has returned, one has thrown, the
// simulation can go no further, or the program fails (dies, times out, breaks the protocol). The
// real-time deadline (protocol::Alarm) ends it too, however much the program asked for.
RunOutcome lock_step(sim::Simulator& sim, Link& link, Remote& remote, const protocol::Writer& hello,
                     const LockStep& world);

}  // namespace overlap::worlds
