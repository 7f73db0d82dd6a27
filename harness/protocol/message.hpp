// The judge/submission protocol's messages: a type and a sequence of typed fields (integers,
// reals, short texts), framed as a 32-bit little-endian length, then the type, then the fields.
// Every read is bounds-checked and every field carries its tag, so a malformed message is a
// ProtocolError that says what was wrong, never a crash or an unbounded allocation.
#pragma once

#include <cstddef>
#include <cstdint>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

namespace overlap::protocol {

inline constexpr std::uint16_t kVersion = 4;
inline constexpr std::size_t kMaxMessageBytes = 64 * 1024;  // a frame, header excluded
inline constexpr std::size_t kHeaderBytes = 4;              // the frame's length

// Anything the other side sent that is not a well-formed message of this protocol.
class ProtocolError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

// Builds one frame. Fields are appended in order; the frame is complete at every point.
class Writer {
 public:
  explicit Writer(std::uint16_t type);

  Writer& integer(std::int64_t value);
  Writer& real(double value);
  Writer& text(std::string_view value);  // at most kMaxMessageBytes in all

  std::string_view frame() const { return {bytes_.data(), bytes_.size()}; }

 private:
  void put(const void* data, std::size_t size);
  std::string bytes_;
};

// Reads one frame's body (what follows its length), field by field, in order.
class Reader {
 public:
  explicit Reader(std::string_view body);

  std::uint16_t type() const { return type_; }

  std::int64_t integer();
  // An integer in [low, high]; `what` names the field in the error.
  std::int64_t integer(std::int64_t low, std::int64_t high, const char* what);
  double real();  // finite
  std::string text();
  bool at_end() const { return at_ == body_.size(); }
  void end() const;  // throws unless every field was read
  void skip_rest();  // reads the fields left (each well-formed), for a call refused part-read

 private:
  void expect(char tag, const char* what);
  void take(void* out, std::size_t size);

  std::string_view body_;
  std::size_t at_ = 0;
  std::uint16_t type_ = 0;
};

}  // namespace overlap::protocol
