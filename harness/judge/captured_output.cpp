#include "captured_output.hpp"

#include <fcntl.h>
#include <fmt/format.h>
#include <poll.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <system_error>

#include "../protocol/text.hpp"

namespace overlap::judge {

CapturedOutput::CapturedOutput() {
  int fds[2];
  if (::pipe2(fds, O_CLOEXEC) != 0) {
    throw std::system_error(errno, std::generic_category(), "pipe");
  }
  read_end_ = fds[0];
  write_end_ = fds[1];
}

CapturedOutput::~CapturedOutput() {
  if (write_end_ >= 0) ::close(write_end_);
  finishing_ = true;
  if (drainer_.joinable()) drainer_.join();
  if (read_end_ >= 0) ::close(read_end_);
}

void CapturedOutput::start() {
  ::close(write_end_);
  write_end_ = -1;
  drainer_ = std::thread([this] { drain(); });
}

void CapturedOutput::drain() {
  char chunk[8192];
  std::chrono::steady_clock::time_point give_up = std::chrono::steady_clock::time_point::max();
  for (;;) {
    // Never waits on the pipe alone: once finish() is called, every writer should be gone (the
    // group was killed and reaped); a writer that is not (a bug, or a process that escaped the
    // group) holds the judge no longer than a moment.
    pollfd p{read_end_, POLLIN, 0};
    const int ready = ::poll(&p, 1, 50);
    if (finishing_.load() && give_up == std::chrono::steady_clock::time_point::max()) {
      give_up = std::chrono::steady_clock::now() + std::chrono::seconds(1);
    }
    if (ready == 0) {
      if (finishing_.load()) return;
      continue;
    }
    if (ready < 0) {
      if (errno == EINTR) continue;
      return;
    }
    const ssize_t n = ::read(read_end_, chunk, sizeof chunk);
    if (n == 0 || (n < 0 && errno != EINTR)) return;  // every writer is gone
    if (n > 0) {
      const auto got = static_cast<std::size_t>(n);
      const std::size_t keep = std::min(got, kKeptBytes - std::min(kKeptBytes, kept_.size()));
      kept_.append(chunk, keep);
      dropped_ += got - keep;
    }
    if (std::chrono::steady_clock::now() > give_up) return;
  }
}

std::string CapturedOutput::finish() {
  if (write_end_ >= 0) ::close(write_end_), write_end_ = -1;
  finishing_ = true;
  if (drainer_.joinable()) drainer_.join();
  std::string shown = protocol::escape_control(kept_);
  while (!shown.empty() && shown.back() == '\n') shown.pop_back();
  if (dropped_ > 0) shown += fmt::format("\n[... {} more bytes not shown]", dropped_);
  return shown;
}

}  // namespace overlap::judge
