#include "message.hpp"

#include <bit>
#include <cmath>
#include <cstring>

namespace overlap::protocol {

static_assert(std::endian::native == std::endian::little, "the frames are little-endian");

namespace {

constexpr char kInteger = 'i';
constexpr char kReal = 'r';
constexpr char kText = 's';

}  // namespace

Writer::Writer(std::uint16_t type) {
  bytes_.reserve(64);  // a call or a completion: one allocation, not a string's growth steps
  bytes_.resize(kHeaderBytes);
  put(&type, sizeof type);
}

void Writer::put(const void* data, std::size_t size) {
  if (bytes_.size() - kHeaderBytes + size > kMaxMessageBytes) {
    throw ProtocolError("a message over " + std::to_string(kMaxMessageBytes) + " bytes");
  }
  bytes_.append(static_cast<const char*>(data), size);
  const auto length = static_cast<std::uint32_t>(bytes_.size() - kHeaderBytes);
  std::memcpy(bytes_.data(), &length, sizeof length);
}

Writer& Writer::integer(std::int64_t value) {
  put(&kInteger, 1);
  put(&value, sizeof value);
  return *this;
}

Writer& Writer::real(double value) {
  put(&kReal, 1);
  put(&value, sizeof value);
  return *this;
}

Writer& Writer::text(std::string_view value) {
  const auto size = static_cast<std::uint32_t>(value.size());
  put(&kText, 1);
  put(&size, sizeof size);
  put(value.data(), value.size());
  return *this;
}

Reader::Reader(std::string_view body) : body_(body) { take(&type_, sizeof type_); }

void Reader::take(void* out, std::size_t size) {
  if (body_.size() - at_ < size) throw ProtocolError("a message cut short");
  std::memcpy(out, body_.data() + at_, size);
  at_ += size;
}

void Reader::expect(char tag, const char* what) {
  char got = 0;
  take(&got, 1);
  if (got != tag) throw ProtocolError(std::string("expected ") + what + ", found another field");
}

std::int64_t Reader::integer() {
  expect(kInteger, "an integer");
  std::int64_t value = 0;
  take(&value, sizeof value);
  return value;
}

std::int64_t Reader::integer(std::int64_t low, std::int64_t high, const char* what) {
  const std::int64_t value = integer();
  if (value < low || value > high) {
    throw ProtocolError(std::string(what) + " " + std::to_string(value) + " is out of range [" +
                        std::to_string(low) + ", " + std::to_string(high) + "]");
  }
  return value;
}

double Reader::real() {
  expect(kReal, "a real");
  double value = 0;
  take(&value, sizeof value);
  if (!std::isfinite(value)) throw ProtocolError("a real that is not finite");
  return value;
}

std::string Reader::text() {
  expect(kText, "a text");
  std::uint32_t size = 0;
  take(&size, sizeof size);
  if (body_.size() - at_ < size) throw ProtocolError("a text longer than its message");
  std::string value(body_.substr(at_, size));
  at_ += size;
  return value;
}

void Reader::skip_rest() {
  while (!at_end()) {
    switch (body_[at_]) {
      case kInteger:
        integer();
        break;
      case kReal:
        real();
        break;
      case kText:
        text();
        break;
      default:
        throw ProtocolError("a field of unknown type");
    }
  }
}

void Reader::end() const {
  if (!at_end()) throw ProtocolError("a message with more fields than its type has");
}

}  // namespace overlap::protocol
