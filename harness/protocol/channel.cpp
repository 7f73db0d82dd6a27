#include "channel.hpp"

#include <fcntl.h>
#include <poll.h>
#include <sched.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <new>
#include <system_error>

#include "frames.hpp"

namespace overlap::protocol {

namespace {

constexpr std::size_t kHeaderPage = 4096;
constexpr std::size_t kRegionBytes = kHeaderPage + 2 * SharedRegion::kRingBytes;
static_assert(sizeof(SharedHeader) <= kHeaderPage);

// How a side with nothing to read waits. The other side's turn in a lock-step round takes a few
// microseconds, and a wake-up through the pipe costs tens when it crosses CPUs: so it watches its
// ring, spinning (given another CPU the other side may run on), then yielding its CPU (the other
// side may be waiting for this one). That pays only while the other side runs and answers at
// once; on a loaded machine it wastes the CPU the other side needs, and a yield can hand it to
// another program for a whole time slice. So after an answer slower than kQuick, or none while it
// watched, where the other side needed no wake-up, the next kSleepAtOnce waits go straight to the
// pipe.
constexpr auto kSpin = std::chrono::microseconds(5);
constexpr auto kWatch = std::chrono::microseconds(50);
constexpr auto kQuick = std::chrono::microseconds(25);
constexpr int kSleepAtOnce = 16;

[[noreturn]] void fail(const char* what) {
  throw std::system_error(errno, std::generic_category(), what);
}

bool has_other_cpus() {
  cpu_set_t cpus;
  return ::sched_getaffinity(0, sizeof cpus, &cpus) != 0 || CPU_COUNT(&cpus) > 1;
}

const std::string& wake_frame() {
  static const std::string frame(Writer(static_cast<std::uint16_t>(Frame::wake)).frame());
  return frame;
}

bool is_wake(std::string_view body) {
  return Reader(body).type() == static_cast<std::uint16_t>(Frame::wake);
}

void relax() {
#if defined(__x86_64__) || defined(__i386__)
  __builtin_ia32_pause();
#endif
}

}  // namespace

SharedRegion::SharedRegion() {
  fd_ = ::memfd_create("overlap-rings", MFD_CLOEXEC | MFD_ALLOW_SEALING);
  if (fd_ < 0) fail("memfd_create");
  if (::ftruncate(fd_, kRegionBytes) != 0) fail("ftruncate");
  if (::fcntl(fd_, F_ADD_SEALS, F_SEAL_SHRINK | F_SEAL_GROW | F_SEAL_SEAL) != 0) fail("seal");
  map();
  header_ = new (memory_) SharedHeader;
}

SharedRegion::SharedRegion(int fd) : fd_(fd) {
  struct stat s {};
  if (::fstat(fd_, &s) != 0) fail("fstat");
  if (static_cast<std::size_t>(s.st_size) != kRegionBytes) {
    errno = EINVAL;
    fail("the shared memory's size");
  }
  map();
  header_ = std::launder(static_cast<SharedHeader*>(memory_));
  ::close(fd_);
  fd_ = -1;
}

SharedRegion::~SharedRegion() {
  if (memory_) ::munmap(memory_, kRegionBytes);
  if (fd_ >= 0) ::close(fd_);
}

void SharedRegion::map() {
  memory_ = ::mmap(nullptr, kRegionBytes, PROT_READ | PROT_WRITE, MAP_SHARED, fd_, 0);
  if (memory_ == MAP_FAILED) memory_ = nullptr, fail("mmap");
}

RingPositions& SharedRegion::positions_to(Side side) const {
  return side == Side::judge ? header_->to_judge : header_->to_program;
}

char* SharedRegion::ring_to(Side side) const {
  return static_cast<char*>(memory_) + kHeaderPage + (side == Side::judge ? kRingBytes : 0);
}

std::atomic<std::uint32_t>& SharedRegion::asleep(Side side) const {
  return side == Side::judge ? header_->judge_asleep : header_->program_asleep;
}

Channel::Channel(SharedRegion& region, Side side, int from_peer, int to_peer,
                 std::size_t max_total_bytes)
    : in_(region.positions_to(side), region.ring_to(side), SharedRegion::kRingBytes),
      out_(region.positions_to(other(side)), region.ring_to(other(side)), SharedRegion::kRingBytes),
      asleep_(region.asleep(side)),
      peer_asleep_(region.asleep(other(side))),
      from_peer_(from_peer),
      from_ring_(max_total_bytes),
      pipe_in_(from_peer, max_total_bytes),
      pipe_out_(to_peer),
      spins_(has_other_cpus()) {}

Io Channel::next(Clock::time_point deadline, std::string& body) {
  for (;;) {
    if (from_ring_.next(body)) return Io::done;
    if (in_.has_bytes()) {
      in_.take([this](std::string_view bytes) { from_ring_.append(bytes); });
      continue;
    }
    // What came on the pipe: from an honest peer, only wake-ups.
    if (woken_by_) {
      body = std::move(*woken_by_);
      woken_by_.reset();
      return Io::done;
    }
    if (pipe_in_.buffered(body)) {
      if (!is_wake(body)) return Io::done;
      continue;
    }
    if (peer_gone_) {
      if (from_ring_.inside_frame()) throw ProtocolError("the stream ended inside a message");
      return Io::closed;
    }
    if (const Io io = wait_for_bytes(deadline); io == Io::timeout) {
      return io;
    } else if (io == Io::closed) {
      peer_gone_ = true;  // read what it left in the ring first
    }
  }
}

Io Channel::wait_for_bytes(Clock::time_point deadline) {
  if (sleep_at_once_ > 0) {
    --sleep_at_once_;
  } else if (const std::optional<Io> io = watch_ring(deadline)) {
    return *io;
  }
  // Raise the flag, then look once more: the peer publishes, then reads the flag, so either it
  // sees the flag and wakes this side, or this side sees its bytes (both fences are seq_cst).
  asleep_.store(1, std::memory_order_relaxed);
  std::atomic_thread_fence(std::memory_order_seq_cst);
  if (in_.has_bytes()) {
    asleep_.store(0, std::memory_order_relaxed);  // a wake-up may come anyway: it is harmless
    return Io::done;
  }
  std::string frame;
  const Io io = pipe_in_.next(deadline, frame);
  asleep_.store(0, std::memory_order_relaxed);
  if (io == Io::done && !is_wake(frame)) woken_by_ = std::move(frame);
  return io;
}

// Nothing (std::nullopt) if nothing came while it watched.
std::optional<Io> Channel::watch_ring(Clock::time_point deadline) {
  const auto start = Clock::now();
  // An answer to a wake-up says how slow the pipe is, not whether the other side runs.
  const bool judge_the_answer = !woke_peer_.load(std::memory_order_relaxed);
  if (spins_) {
    for (unsigned i = 1;; ++i) {
      if (in_.has_bytes()) return Io::done;
      relax();
      if (i % 64 == 0 && Clock::now() - start >= kSpin) break;
    }
  }
  for (auto now = Clock::now(); now - start < kWatch; now = Clock::now()) {
    if (in_.has_bytes()) {
      if (judge_the_answer && now - start > kQuick) sleep_at_once_ = kSleepAtOnce;
      return Io::done;
    }
    if (now >= deadline) return Io::timeout;
    ::sched_yield();
  }
  if (judge_the_answer) sleep_at_once_ = kSleepAtOnce;
  return std::nullopt;
}

Io Channel::wake_peer(Clock::time_point deadline) {
  std::atomic_thread_fence(std::memory_order_seq_cst);
  const bool asleep =
      peer_asleep_.load(std::memory_order_relaxed) != 0 && peer_asleep_.exchange(0) != 0;
  woke_peer_.store(asleep, std::memory_order_relaxed);
  if (!asleep) return Io::done;
  return pipe_out_.write(wake_frame(), deadline);
}

Io Channel::write(std::string_view frames, Clock::time_point deadline) {
  for (;;) {
    frames.remove_prefix(out_.put(frames));
    if (const Io io = wake_peer(deadline); io != Io::done) return io;
    if (frames.empty()) return Io::done;
    if (const Io io = wait_for_room(deadline); io != Io::done) return io;
  }
}

Io Channel::wait_for_room(Clock::time_point deadline) {
  // Rare (a megabyte unread): the peer makes room as it reads, without a wake-up, so this polls,
  // noticing the peer's end on its pipe (a hang-up is reported whatever the events asked).
  const auto start = Clock::now();
  for (auto now = start; !out_.has_room(); now = Clock::now()) {
    if (now >= deadline) return Io::timeout;
    if (now - start < kWatch) {
      ::sched_yield();
      continue;
    }
    pollfd p{from_peer_, 0, 0};
    if (::poll(&p, 1, 1) > 0 && (p.revents & (POLLHUP | POLLERR))) return Io::closed;
  }
  return Io::done;
}

}  // namespace overlap::protocol
