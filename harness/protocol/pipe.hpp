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

// Bytes as they come, cut into frames. At most `max_total_bytes` over its lifetime.
class FrameBuffer {
 public:
  explicit FrameBuffer(std::size_t max_total_bytes);

  // Throws ProtocolError past the total.
  void append(std::string_view bytes);
  // The next whole frame's body into `body`, if there is one. Throws ProtocolError on a frame
  // over kMaxMessageBytes, before it is read.
  bool next(std::string& body);
  // Whether a frame has begun and not ended.
  bool inside_frame() const { return buffer_.size() > start_; }

 private:
  std::size_t max_total_;
  std::size_t total_ = 0;
  std::string buffer_;
  std::size_t start_ = 0;  // where the unread part of buffer_ begins
};

// Reads frames from `fd`. At most `max_total_bytes` over its lifetime.
class FrameReader {
 public:
  FrameReader(int fd, std::size_t max_total_bytes);

  // The next frame's body into `body`; `timeout` at the deadline; `closed` at a clean end of
  // the stream. Throws ProtocolError on a frame over kMaxMessageBytes, past the total, or a
  // stream that ends inside a frame.
  Io next(Clock::time_point deadline, std::string& body);
  // The next frame's body if it has been read from `fd` already; never waits.
  bool buffered(std::string& body) { return frames_.next(body); }

 private:
  int fd_;
  FrameBuffer frames_;
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
