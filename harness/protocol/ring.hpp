// A byte stream from one process to another through memory they share: a ring of bytes and two
// positions, each written by one end only. Each end keeps its own position privately and only
// publishes it, and checks what it reads of the other's: a peer that scribbles on the shared
// memory can garble the stream (a ProtocolError) but never make this end read or write outside
// the ring.
#pragma once

#include <atomic>
#include <cstddef>
#include <cstdint>
#include <string_view>

namespace overlap::protocol {

// In shared memory. Lock-free 64-bit atomics are address-free, so they work across processes.
struct RingPositions {
  alignas(64) std::atomic<std::uint64_t> written{0};  // bytes ever put in: the writer's
  alignas(64) std::atomic<std::uint64_t> taken{0};    // bytes ever taken out: the reader's
};
static_assert(std::atomic<std::uint64_t>::is_always_lock_free);

class RingWriter {
 public:
  RingWriter(RingPositions& positions, char* bytes, std::size_t capacity);

  // Copies as much of `data` as there is room for, then publishes it; returns how much.
  std::size_t put(std::string_view data);
  // Whether the reader has made room since the ring was last full.
  bool has_room() const { return room() > 0; }

 private:
  std::size_t room() const;

  RingPositions& positions_;
  char* bytes_;
  std::size_t capacity_;
  std::uint64_t written_ = 0;
};

class RingReader {
 public:
  RingReader(RingPositions& positions, const char* bytes, std::size_t capacity);

  // Whether bytes were published since the last take: one load, for a waiting loop.
  bool has_bytes() const;
  // Hands every byte published since the last take to `copy` (one or two pieces, in order: it
  // must copy them, since the writer may reuse the room once they are taken), then publishes
  // that they were taken.
  template <typename Copy>
  void take(Copy&& copy) {
    const std::uint64_t written = published();
    // Copied once, then parsed from the copy: the peer may rewrite the ring meanwhile, and what
    // it garbles is only the stream's content.
    const std::size_t n = static_cast<std::size_t>(written - taken_);
    const std::size_t at = static_cast<std::size_t>(taken_ % capacity_);
    const std::size_t first = n < capacity_ - at ? n : capacity_ - at;
    copy(std::string_view(bytes_ + at, first));
    if (n > first) copy(std::string_view(bytes_, n - first));
    taken_ = written;
    positions_.taken.store(taken_, std::memory_order_release);
  }

 private:
  // The writer's position, checked: throws ProtocolError unless it is within a ring of ours.
  std::uint64_t published() const;

  RingPositions& positions_;
  const char* bytes_;
  std::size_t capacity_;
  std::uint64_t taken_ = 0;
};

}  // namespace overlap::protocol
