// One end of the connection between the judge and a submission program. Frames go through
// memory the two processes share, a ring each way (ring.hpp), so a lock-step turn costs no
// system call when the other side answers within microseconds. A side with nothing to read
// watches its ring a moment (spinning, then yielding its CPU), while that pays, then sleeps on its
// pipe with its flag raised; the other side, having written, sees the flag and sends a `wake`
// frame down that pipe. The pipes also carry what shared memory cannot:
// the other side's end (the end of its stream) and deadlines (pipe.hpp).
//
// A frame other than `wake` that arrives on the pipe is read like one from the ring: an honest
// side never sends one, and whatever comes to the judge is read as the protocol, never ignored.
#pragma once

#include <atomic>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

#include "pipe.hpp"
#include "ring.hpp"

namespace overlap::protocol {

// The two ends of a connection.
enum class Side { judge, program };
constexpr Side other(Side side) { return side == Side::judge ? Side::program : Side::judge; }

// In the shared memory, before the rings' bytes.
struct SharedHeader {
  RingPositions to_program;
  RingPositions to_judge;
  alignas(64) std::atomic<std::uint32_t> judge_asleep{0};
  alignas(64) std::atomic<std::uint32_t> program_asleep{0};
};

// The shared memory of one run. The judge makes it; the program maps what it was given.
class SharedRegion {
 public:
  static constexpr std::size_t kRingBytes = std::size_t{1} << 20;  // each way

  // The judge's: new memory, in a sealed memfd (its size cannot change under the judge, so the
  // program cannot make the judge's reads fault). Pass fd() to the program.
  SharedRegion();
  // The program's: maps the memory the judge made, given as `fd`, and closes `fd`.
  explicit SharedRegion(int fd);
  ~SharedRegion();
  SharedRegion(const SharedRegion&) = delete;
  SharedRegion& operator=(const SharedRegion&) = delete;

  int fd() const { return fd_; }
  SharedHeader& header() const { return *header_; }
  // The ring whose bytes go to `side`: its positions and its bytes; and `side`'s flag, raised
  // while it sleeps on its pipe.
  RingPositions& positions_to(Side side) const;
  char* ring_to(Side side) const;
  std::atomic<std::uint32_t>& asleep(Side side) const;

 private:
  void map();

  int fd_ = -1;
  void* memory_ = nullptr;
  SharedHeader* header_ = nullptr;
};

class Channel {
 public:
  // Reads from `from_peer` and the ring to this side; writes to the ring from it and, to wake the
  // peer, to `to_peer`. Reads at most `max_total_bytes` over its lifetime from each (ring, pipe).
  Channel(SharedRegion& region, Side side, int from_peer, int to_peer, std::size_t max_total_bytes);

  // As FrameReader::next: the next frame's body; `timeout` at the deadline; `closed` once the
  // peer is gone and everything it sent was read. Throws ProtocolError as FrameReader does, and on
  // ring positions the peer garbled.
  Io next(Clock::time_point deadline, std::string& body);
  // As FrameWriter::write: all of `frames` before the deadline; `closed` when the peer is gone.
  // Waits for room only if the ring is full. One thread may write while another reads.
  Io write(std::string_view frames, Clock::time_point deadline);

 private:
  Io wait_for_bytes(Clock::time_point deadline);
  std::optional<Io> watch_ring(Clock::time_point deadline);
  Io wait_for_room(Clock::time_point deadline);
  Io wake_peer(Clock::time_point deadline);

  RingReader in_;
  RingWriter out_;
  std::atomic<std::uint32_t>& asleep_;
  std::atomic<std::uint32_t>& peer_asleep_;
  int from_peer_;
  FrameBuffer from_ring_;
  FrameReader pipe_in_;
  FrameWriter pipe_out_;
  std::optional<std::string> woken_by_;  // a frame other than `wake` that ended a sleep
  bool peer_gone_ = false;
  bool spins_;             // more than one CPU to run on: the peer may be answering on another
  int sleep_at_once_ = 0;  // waits left that skip watching the ring (channel.cpp says why)
  std::atomic<bool> woke_peer_{false};  // the last write sent the peer a wake-up
};

}  // namespace overlap::protocol
