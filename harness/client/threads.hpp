// The submission's own threads, as the client sees them before telling the judge that nothing
// is left to do: a thread that is still running (a coroutine resumed on a thread_pool, a
// std::thread) may be about to call the cluster, and whether the judge hears of it must not
// depend on who wins a race.
#pragma once

namespace overlap::client {

// Returns once no thread of this process but the caller is running or runnable (each one is
// blocked: waiting on a futex, a pipe, a sleep, or stopped), checking every millisecond.
// A thread that never blocks keeps it waiting: the judge's real-time limit ends the run.
void wait_until_other_threads_block();

}  // namespace overlap::client
