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

// The threads a submission may have alive at once (thread_limit.cpp). A thread past them is
// reported on kRefusalFd as this number, which names no system call.
inline constexpr int kMaxThreads = 256;
inline constexpr int kTooManyThreads = -2;

// In the sanitizer mode (preset asan), the exit status of a program a sanitizer stopped.
inline constexpr int kSanitizerExit = 125;

// Installs the SIGSYS handler and the filter for this process and every thread it starts. Once
// in force it cannot be lifted, nor the handler replaced. Throws std::runtime_error on failure.
void install_filter();

}  // namespace overlap::sandbox
