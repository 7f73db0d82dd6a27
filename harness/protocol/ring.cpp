#include "ring.hpp"

#include <algorithm>
#include <cstring>

#include "message.hpp"

namespace overlap::protocol {

RingWriter::RingWriter(RingPositions& positions, char* bytes, std::size_t capacity)
    : positions_(positions), bytes_(bytes), capacity_(capacity) {}

std::size_t RingWriter::room() const {
  const std::uint64_t taken = positions_.taken.load(std::memory_order_acquire);
  if (taken > written_ || written_ - taken > capacity_) {
    throw ProtocolError("the shared ring's read position is " + std::to_string(taken) + ", after " +
                        std::to_string(written_) + " bytes were written to it");
  }
  return capacity_ - static_cast<std::size_t>(written_ - taken);
}

std::size_t RingWriter::put(std::string_view data) {
  const std::size_t n = std::min(room(), data.size());
  const std::size_t at = static_cast<std::size_t>(written_ % capacity_);
  const std::size_t first = std::min(n, capacity_ - at);
  std::memcpy(bytes_ + at, data.data(), first);
  std::memcpy(bytes_, data.data() + first, n - first);
  written_ += n;
  positions_.written.store(written_, std::memory_order_release);
  return n;
}

RingReader::RingReader(RingPositions& positions, const char* bytes, std::size_t capacity)
    : positions_(positions), bytes_(bytes), capacity_(capacity) {}

bool RingReader::has_bytes() const {
  return positions_.written.load(std::memory_order_acquire) != taken_;
}

std::uint64_t RingReader::published() const {
  const std::uint64_t written = positions_.written.load(std::memory_order_acquire);
  if (written < taken_ || written - taken_ > capacity_) {
    throw ProtocolError("the shared ring's write position is " + std::to_string(written) +
                        ", after " + std::to_string(taken_) + " bytes were read from it");
  }
  return written;
}

}  // namespace overlap::protocol
