// The submission's own threads, as the client sees them before it tells the judge that nothing
// is left to do at this instant: a thread that is still running, or that waits with a timeout (a
// coroutine resumed on a thread_pool, a std::thread that sleeps), may be about to post to the
// context or call the cluster, and whether the judge hears of it must not depend on who wins a
// race: the report is the same on every run. What the client learns of them comes from the
// kernel (/proc), never from memory the submission could write.
#pragma once

#include <initializer_list>

namespace overlap::client {

// The descriptors the judge can make ready (its pipes): a thread asleep on one of them would be
// woken by the judge's frames, in real time. Recorded before the submission is loaded, as the
// kernel names the files (so a dup of one is the same file).
void note_judge_descriptors(std::initializer_list<int> fds);

struct OtherThreads {
  enum Kind {
    // No thread of this process but the caller can act before the judge or the caller's thread
    // does something: each other one is blocked with no timeout in a call only those can end (a
    // futex wait, a read, a poll or a signal wait), or is stopped or gone, the same in two
    // consecutive readings with unchanged context-switch counts.
    quiet,
    busy,            // one runs, or waits with a timeout: it may still post or call
    waits_on_judge,  // `thread` (1 for the first started) waits on a judge's descriptor
  };
  Kind kind = quiet;
  int thread = 0;
};

// A process with one thread (the kernel's count) is quiet after one read of /proc.
OtherThreads read_other_threads();

}  // namespace overlap::client
