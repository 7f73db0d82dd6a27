#include "thread_watch.hpp"

#include <seccomp.h>
#include <signal.h>
#include <sys/socket.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <exception>

#include "filter.hpp"

namespace overlap::sandbox {

void start_thread_watch() {
  int listener = -1;
  try {
    listener = install_thread_watch();
  } catch (const std::exception& e) {
    std::fprintf(stderr, "overlap launcher: %s\n", e.what());
    std::_Exit(127);
  }
  char byte = 'W';
  iovec data{&byte, 1};
  alignas(cmsghdr) char control[CMSG_SPACE(sizeof listener)] = {};
  msghdr m{};
  m.msg_iov = &data;
  m.msg_iovlen = 1;
  m.msg_control = control;
  m.msg_controllen = sizeof control;
  cmsghdr* c = CMSG_FIRSTHDR(&m);
  c->cmsg_level = SOL_SOCKET;
  c->cmsg_type = SCM_RIGHTS;
  c->cmsg_len = CMSG_LEN(sizeof listener);
  std::memcpy(CMSG_DATA(c), &listener, sizeof listener);
  ssize_t sent;
  while ((sent = ::sendmsg(kThreadWatchFd, &m, MSG_NOSIGNAL)) < 0 && errno == EINTR) {
  }
  if (sent != 1) {
    std::perror("overlap launcher: send the thread watch to the host");
    std::_Exit(127);
  }
  ::close(listener);
  ::close(kThreadWatchFd);
}

ThreadWatch::ThreadWatch(pid_t program, int socket) : program_(program), socket_(socket) {
  // Also what makes libseccomp's notify calls work in this process, which loaded no filter.
  if (::seccomp_notify_alloc(&request_, &response_) != 0) {
    request_ = nullptr;
    response_ = nullptr;
    drop(socket_);
    ::kill(program_, SIGKILL);  // its threads would wait for an answer for ever
  }
}

ThreadWatch::~ThreadWatch() {
  drop(socket_);
  drop(listener_);
  ::seccomp_notify_free(request_, response_);
}

pollfd ThreadWatch::waiting() const { return {listener_ >= 0 ? listener_ : socket_, POLLIN, 0}; }

void ThreadWatch::handle(short revents) {
  if (listener_ < 0) {
    receive_listener();
  } else if (revents & POLLIN) {
    answer();
  } else {
    drop(listener_);  // POLLHUP: no thread of the program is left to notify
  }
}

void ThreadWatch::receive_listener() {
  char byte = 0;
  iovec data{&byte, 1};
  alignas(cmsghdr) char control[CMSG_SPACE(sizeof(int))] = {};
  msghdr m{};
  m.msg_iov = &data;
  m.msg_iovlen = 1;
  m.msg_control = control;
  m.msg_controllen = sizeof control;
  const ssize_t n = ::recvmsg(socket_, &m, MSG_DONTWAIT | MSG_CMSG_CLOEXEC);
  if (n < 0 && (errno == EINTR || errno == EAGAIN)) return;
  for (cmsghdr* c = CMSG_FIRSTHDR(&m); c; c = CMSG_NXTHDR(&m, c)) {
    if (c->cmsg_level == SOL_SOCKET && c->cmsg_type == SCM_RIGHTS &&
        c->cmsg_len == CMSG_LEN(sizeof(int))) {
      std::memcpy(&listener_, CMSG_DATA(c), sizeof(int));
    }
  }
  drop(socket_);
  // A program that sent none could not install it and is exiting already; one whose listener
  // did not come must not run uncounted.
  if (listener_ < 0) ::kill(program_, SIGKILL);
}

// One notification: a thread clone let through or refused, or a thread's end let through. Only
// an answer the kernel took counts: one it did not (ENOENT, a signal ended the wait before the
// host read it) is notified again.
void ThreadWatch::answer() {
  std::memset(request_, 0, sizeof *request_);  // the kernel wants it zeroed
  if (::seccomp_notify_receive(listener_, request_) != 0) return;
  std::memset(response_, 0, sizeof *response_);
  response_->id = request_->id;
  const bool clone = request_->data.nr == SYS_clone;
  if (clone && (refused_ || alive_ > kMaxThreads)) {
    response_->error = -EAGAIN;
    ::seccomp_notify_respond(listener_, response_);
    if (!refused_) ::kill(program_, SIGKILL);
    refused_ = true;
    return;
  }
  response_->flags = SECCOMP_USER_NOTIF_FLAG_CONTINUE;
  if (::seccomp_notify_respond(listener_, response_) != 0) return;
  if (clone) {
    ++alive_;
  } else if (request_->data.nr == SYS_exit) {
    --alive_;
  }
}

void ThreadWatch::drop(int& fd) {
  if (fd >= 0) ::close(fd);
  fd = -1;
}

}  // namespace overlap::sandbox
