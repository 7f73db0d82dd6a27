// The threads of a program the sandbox's host started, counted by the host: every clone of a
// thread and every end of one in the program waits on a seccomp listener (filter.hpp's thread
// watch) that only the host holds, so no route to a thread goes around the count (std::thread,
// the C library's own pthread_create, a raw clone) and nothing the program can write changes
// it. The clone of one past kMaxThreads alive besides the main thread is refused (EAGAIN), the
// program killed, and the refusal reported to the judge, whatever the program would have done
// with the error. A clone the kernel then fails (no memory) still counts: the count errs on the
// side of fewer threads.
#pragma once

#include <poll.h>
#include <sys/types.h>

struct seccomp_notif;
struct seccomp_notif_resp;

namespace overlap::sandbox {

// Where the program finds its end of the socket the listener goes to the host on, from the fork
// until it has sent it.
inline constexpr int kThreadWatchFd = 9;

// In the program, before anything else of it runs: installs the thread watch, sends its listener
// on kThreadWatchFd and closes both, so that the program never holds the listener. Exits 127
// (the program could not be started), saying why on stderr, when it cannot.
void start_thread_watch();

// In the host: the count of one program's threads.
class ThreadWatch {
 public:
  // `socket`: the host's end of the socket the program sends its listener on (owned).
  ThreadWatch(pid_t program, int socket);
  ~ThreadWatch();
  ThreadWatch(const ThreadWatch&) = delete;
  ThreadWatch& operator=(const ThreadWatch&) = delete;

  // What to poll: the socket until the listener has come, then the listener; nothing (fd -1)
  // once the program is gone.
  pollfd waiting() const;
  // Handles what the poll reported on it: never blocks.
  void handle(short revents);
  // Whether a thread was refused (and the program killed).
  bool refused() const { return refused_; }

 private:
  void receive_listener();
  void answer();
  void drop(int& fd);

  pid_t program_;
  int socket_;
  int listener_ = -1;
  int alive_ = 1;  // the main thread, and each thread clone and end the host let through
  bool refused_ = false;
  seccomp_notif* request_ = nullptr;
  seccomp_notif_resp* response_ = nullptr;
};

}  // namespace overlap::sandbox
