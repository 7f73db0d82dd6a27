#include "pipe.hpp"

#include <poll.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <system_error>

namespace overlap::protocol {

namespace {

// A non-blocking descriptor's wait: until `fd` is ready for `events`, false at the deadline.
bool wait(int fd, short events, Clock::time_point deadline) {
  for (;;) {
    const auto left = std::chrono::ceil<std::chrono::milliseconds>(deadline - Clock::now()).count();
    if (left <= 0) return false;
    pollfd p{fd, events, 0};
    const int n = ::poll(&p, 1, static_cast<int>(std::min<long long>(left, 1 << 30)));
    if (n > 0) return true;
    if (n < 0 && errno != EINTR) throw std::system_error(errno, std::generic_category(), "poll");
  }
}

}  // namespace

FrameBuffer::FrameBuffer(std::size_t max_total_bytes) : max_total_(max_total_bytes) {}

void FrameBuffer::append(std::string_view bytes) {
  total_ += bytes.size();
  if (total_ > max_total_) {
    throw ProtocolError("more than " + std::to_string(max_total_) + " bytes in one run");
  }
  if (start_ > 0) buffer_.erase(0, start_), start_ = 0;
  buffer_.append(bytes);
}

bool FrameBuffer::next(std::string& body) {
  const std::size_t available = buffer_.size() - start_;
  if (available < kHeaderBytes) return false;
  std::uint32_t length = 0;
  std::memcpy(&length, buffer_.data() + start_, sizeof length);
  if (length > kMaxMessageBytes) {
    throw ProtocolError("a message of " + std::to_string(length) + " bytes, over the cap of " +
                        std::to_string(kMaxMessageBytes));
  }
  if (available < kHeaderBytes + length) return false;
  body.assign(buffer_, start_ + kHeaderBytes, length);
  start_ += kHeaderBytes + length;
  if (start_ == buffer_.size()) buffer_.clear(), start_ = 0;
  return true;
}

FrameReader::FrameReader(int fd, std::size_t max_total_bytes) : fd_(fd), frames_(max_total_bytes) {}

Io FrameReader::next(Clock::time_point deadline, std::string& body) {
  char chunk[65536];
  for (;;) {
    if (frames_.next(body)) return Io::done;
    const ssize_t n = ::read(fd_, chunk, sizeof chunk);
    if (n > 0) {
      frames_.append({chunk, static_cast<std::size_t>(n)});
    } else if (n == 0) {
      if (frames_.inside_frame()) throw ProtocolError("the stream ended inside a message");
      return Io::closed;
    } else if (errno == EAGAIN || errno == EWOULDBLOCK) {
      if (!wait(fd_, POLLIN, deadline)) return Io::timeout;
    } else if (errno != EINTR) {
      throw std::system_error(errno, std::generic_category(), "read");
    } else if (Clock::now() >= deadline) {
      return Io::timeout;
    }
  }
}

FrameWriter::FrameWriter(int fd) : fd_(fd) {}

Io FrameWriter::write(std::string_view bytes, Clock::time_point deadline) {
  while (!bytes.empty()) {
    const ssize_t n = ::write(fd_, bytes.data(), bytes.size());
    if (n > 0) {
      bytes.remove_prefix(static_cast<std::size_t>(n));
    } else if (n < 0 && errno == EPIPE) {
      return Io::closed;
    } else if (n < 0 && (errno == EAGAIN || errno == EWOULDBLOCK)) {
      if (!wait(fd_, POLLOUT, deadline)) return Io::timeout;
    } else if (n < 0 && errno != EINTR) {
      throw std::system_error(errno, std::generic_category(), "write");
    } else if (Clock::now() >= deadline) {  // interrupted
      return Io::timeout;
    }
  }
  return Io::done;
}

}  // namespace overlap::protocol
