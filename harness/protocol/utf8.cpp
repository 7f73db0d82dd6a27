#include "utf8.hpp"

namespace overlap::protocol {

std::size_t utf8_sequence(std::string_view text) {
  if (text.empty()) return 0;
  const auto byte = [text](std::size_t i) { return static_cast<unsigned char>(text[i]); };
  const unsigned char lead = byte(0);
  if (lead < 0x80) return 1;
  // RFC 3629's table: the lead byte gives the length, and bounds the second byte more tightly
  // than a continuation where the shortest form, the surrogates or U+10FFFF would be crossed.
  std::size_t length = 0;
  unsigned char low = 0x80, high = 0xbf;
  if (lead >= 0xc2 && lead <= 0xdf) {
    length = 2;
  } else if (lead >= 0xe0 && lead <= 0xef) {
    length = 3;
    if (lead == 0xe0) low = 0xa0;   // below: overlong
    if (lead == 0xed) high = 0x9f;  // above: a surrogate
  } else if (lead >= 0xf0 && lead <= 0xf4) {
    length = 4;
    if (lead == 0xf0) low = 0x90;   // below: overlong
    if (lead == 0xf4) high = 0x8f;  // above: past U+10FFFF
  } else {
    return 0;
  }
  if (text.size() < length || byte(1) < low || byte(1) > high) return 0;
  for (std::size_t i = 2; i < length; ++i) {
    if ((byte(i) & 0xc0) != 0x80) return 0;
  }
  return length;
}

}  // namespace overlap::protocol
