// The frames of one run between the judge and a submission program, and the order they flow in.
//
//   judge -> client   hello, then batches: (state | completion)* go, ..., then end.
//   client -> judge   batches: (call | cancel | returned | threw | threads_busy)* idle, or
//                     ending in a misuse the client saw (work_count, posts_from_threads,
//                     waits_on_judge), after which it only waits for `end`.
//
// Lock-step: the client runs the submission's handlers until none is ready and no other thread of
// the submission can act, then sends what it asked for since its last batch, ended by `idle`,
// and waits. The judge applies the requests in order at the current instant and answers with the
// next batch: every completion due now, else those of the next instant with one. Calls are numbered
// 1, 2, ... in the order they are sent, on both sides; an object a call makes (a tensor, a
// gradient) is the handle of that number.
//
// The frames travel through a ring in shared memory each way; a side asleep on its pipe is sent
// `wake` there (channel.hpp).
#pragma once

#include <cstdint>
#include <string_view>

namespace overlap::protocol {

enum class Frame : std::uint16_t {
  // judge -> client
  hello = 1,       // version, exercise name, then the exercise's public parameters
  completion = 2,  // call number, error category name, error value, then the call's results
  state = 3,       // the exercise's values the submission reads for free (a step, failed workers)
  go = 4,          // the batch is complete: post its completions, run handlers
  end = 5,         // the run is over: exit
  settle = 6,      // nothing can happen: answer once more before the judge calls it a deadlock
  // client -> judge
  call = 16,          // operation code, then its arguments
  cancel = 17,        // call number: the submission cancelled that operation
  returned = 18,      // actor index: train returned
  threw = 19,         // actor index (-1: a completion handler), the exception's text, and 1 if
                      // it echoes a refused call (errc::misuse, a cancellation), else 0
  idle = 20,          // the batch is complete: nothing more is ready to run
  foreign_call = 21,  // an operation's name: called from a thread other than train's (refused)
  threads_busy = 22,  // the batch waits for a thread of the submission that runs or waits with a
                      // timeout (client/threads.hpp)
  work_count = 23,    // the context's outstanding work fell below the client's reserve
  posts_from_threads = 24,  // two or more threads of the submission's own posted to train's
                            // context within this instant (client/posts.hpp)
  waits_on_judge = 25,      // thread N (1 for the first started) waits on a judge's descriptor
  // both ways, on the pipe only (channel.hpp)
  wake = 30,  // the ring to a side asleep on its pipe has bytes
};

// An operation of a world's API as both ends know it (each world's wire.hpp lists them in code
// order): its name, and whether its call gets a completion frame (if not, it is done at once).
struct Operation {
  std::string_view name;
  bool completes;
};

}  // namespace overlap::protocol
