// Frames over pipes, with every wait bounded by a deadline: what the judge needs to never hang on
// a submission that stops reading, stops writing, floods, or dies; and what the client needs to
// survive signals (EINTR) and short reads and writes.
#pragma once

#include <chrono>
#include <cstddef>
#include <string>
#include <string_view>

#include "message.hpp"

namespace overlap::protocol {

using Clock = std::chrono::steady_clock;

enum class Io { done, timeout, closed };

// Both ends leave the descriptor's mode as it is. On a blocking descriptor (the fast path: one
// system call per read or write) a wait ends at its deadline only when a signal interrupts it
// after the deadline: the judge holds an Alarm (alarm.hpp) for that; the client waits forever.
// A non-blocking descriptor is polled until the deadline.

// Reads frames from `fd`. At most `max_total_bytes` over its lifetime.
class FrameReader {
 public:
  FrameReader(int fd, std::size_t max_total_bytes);

  // The next frame's body into `body`; `timeout` at the deadline; `closed` at a clean end of
  // the stream. Throws ProtocolError on a frame over kMaxMessageBytes, past the total, or a
  // stream that ends inside a frame.
  Io next(Clock::time_point deadline, std::string& body);

  std::size_t bytes_read() const { return total_; }

 private:
  bool frame_ready(std::string& body);

  int fd_;
  std::size_t max_total_;
  std::size_t total_ = 0;
  std::string buffer_;
  std::size_t start_ = 0;  // where the unread part of buffer_ begins
};

// Writes frames to `fd`.
class FrameWriter {
 public:
  explicit FrameWriter(int fd);

  // All of `bytes` (whole frames) before the deadline; `closed` when the reader is gone (the
  // caller ignores SIGPIPE).
  Io write(std::string_view bytes, Clock::time_point deadline);

 private:
  int fd_;
};

}  // namespace overlap::protocol
