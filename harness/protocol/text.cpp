#include "text.hpp"

#include <cstdio>

#include "utf8.hpp"

namespace overlap::protocol {

std::string escape_control(std::string_view text) {
  std::string out;
  out.reserve(text.size());
  while (!text.empty()) {
    const auto c = static_cast<unsigned char>(text[0]);
    std::size_t n = 1;
    if (c == '\n' || c == '\t' || (c >= 0x20 && c < 0x7f)) {
      out += static_cast<char>(c);
    } else if (c >= 0x80 && (n = utf8_sequence(text)) > 0 &&
               !(c == 0xc2 && static_cast<unsigned char>(text[1]) < 0xa0)) {  // C1 controls
      out.append(text.substr(0, n));
    } else {
      n = 1;  // a control character, or a byte of no valid sequence
      char hex[5];
      std::snprintf(hex, sizeof hex, "\\x%02x", c);
      out += hex;
    }
    text.remove_prefix(n);
  }
  return out;
}

}  // namespace overlap::protocol
