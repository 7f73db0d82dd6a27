// The system calls a submission may make: what a single-process Asio program needs (memory,
// futexes, its own threads, reading files, writing to the descriptors it was given, clocks,
// sleeping) and nothing that reaches outside it (processes, programs, signals to others, files
// opened for writing, sockets, real timers, the clock, mounts, tracing). Installed by the
// launcher before the submission's code is loaded, so that none of it runs unfiltered.
#pragma once

namespace overlap::sandbox {

// Where a refused call is reported: the launcher's SIGSYS handler writes the call's number here
// (a pipe the judge reads once the program is over), then ends the process.
inline constexpr int kRefusalFd = 5;

// The threads a submission may have alive at once besides its main thread, counted by the
// sandbox's host (thread_watch.hpp), which refuses the clone of one past them, whatever the
// route (std::thread, the C library's pthread_create, a raw clone). The judge names that
// refusal by this number, which names no system call (refusal.hpp).
inline constexpr int kMaxThreads = 256;
inline constexpr int kTooManyThreads = -2;

// In the sanitizer mode (preset asan), the exit status of a program a sanitizer stopped.
inline constexpr int kSanitizerExit = 125;

// Installs the SIGSYS handler and the filter for this process and every thread it starts. Once
// in force it cannot be lifted, nor the handler replaced. Throws std::runtime_error on failure.
void install_filter();

// The thread watch, for this process and every thread it starts: each clone of a thread and
// each end of one (exit, not exit_group) waits until the holder of the returned descriptor (a
// seccomp listener) answers it. Installed by the host in each program it starts, before the
// filter above, which it does not loosen: stacked, the stricter action wins. Throws
// std::runtime_error on failure.
int install_thread_watch();

}  // namespace overlap::sandbox
