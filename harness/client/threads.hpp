// The submission's own threads, as the client sees them before it tells the judge that nothing
// is left to do at this instant: a thread that is still running, or that waits with a timeout (a
// coroutine resumed on a thread_pool, a std::thread that sleeps), may be about to post to the
// context or call the cluster, and whether the judge hears of it must not depend on who wins a
// race: the report is the same on every run.
#pragma once

namespace overlap::client {

// Whether no thread of this process but the caller can act before the judge or the caller's
// thread does something: every other one is blocked with no timeout in a call only those can end
// (a futex wait, a read, a poll or a signal wait, none with a timeout) or is stopped or gone,
// the same in two consecutive readings with unchanged context-switch counts, and no timer of the
// process is armed. A process that never started a thread is quiet at once, without a system
// call.
bool other_threads_quiet();

}  // namespace overlap::client
