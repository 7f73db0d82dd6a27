#include "alarm.hpp"

#include <signal.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <cerrno>
#include <system_error>

namespace overlap::protocol {

namespace {

constexpr int kSignal = SIGALRM;

// Written by the signal handler: lock-free, so a store there is safe.
std::atomic<bool> deadline_passed{false};
static_assert(std::atomic<bool>::is_always_lock_free);

void install_handler() {
  struct sigaction action {};
  action.sa_handler = [](int) { deadline_passed.store(true, std::memory_order_relaxed); };
  sigemptyset(&action.sa_mask);
  action.sa_flags = 0;  // no SA_RESTART: interrupting the blocked call is the point
  if (::sigaction(kSignal, &action, nullptr) != 0) {
    throw std::system_error(errno, std::generic_category(), "sigaction");
  }
  sigset_t set;
  sigemptyset(&set);
  sigaddset(&set, kSignal);
  ::pthread_sigmask(SIG_UNBLOCK, &set, nullptr);
}

timespec timespec_of(Clock::duration d) {
  const auto ns = std::chrono::duration_cast<std::chrono::nanoseconds>(d).count();
  return {static_cast<time_t>(ns / 1'000'000'000), static_cast<long>(ns % 1'000'000'000)};
}

}  // namespace

const std::atomic<bool>& Alarm::rung() { return deadline_passed; }

Alarm::Alarm(Clock::time_point deadline) {
  deadline_passed.store(false, std::memory_order_relaxed);
  if (deadline == Clock::time_point::max()) return;
  install_handler();
  sigevent event{};
  event.sigev_notify = SIGEV_THREAD_ID;
  event.sigev_signo = kSignal;
  event._sigev_un._tid = static_cast<pid_t>(::syscall(SYS_gettid));
  // steady_clock is CLOCK_MONOTONIC on Linux, so the deadline is an absolute time on it.
  if (::timer_create(CLOCK_MONOTONIC, &event, &timer_) != 0) {
    throw std::system_error(errno, std::generic_category(), "timer_create");
  }
  armed_ = true;
  itimerspec when{};
  when.it_value = timespec_of(std::max(deadline.time_since_epoch(), Clock::duration(1)));
  when.it_interval = timespec_of(std::chrono::milliseconds(10));
  if (::timer_settime(timer_, TIMER_ABSTIME, &when, nullptr) != 0) {
    const int error = errno;
    ::timer_delete(timer_);
    throw std::system_error(error, std::generic_category(), "timer_settime");
  }
}

Alarm::~Alarm() {
  if (armed_) ::timer_delete(timer_);
  deadline_passed.store(false, std::memory_order_relaxed);
}

}  // namespace overlap::protocol
