// Text a submission supplies, as reports show it: RFC 3629's UTF-8 validator against a table of
// sequences of every kind, and against a decoder written the other way round (decode, then
// check the code point) on every lead byte; escape_control's output always well-formed.
#include "../../protocol/text.hpp"

#include <boost/test/unit_test.hpp>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "../../protocol/utf8.hpp"

using overlap::protocol::escape_control;
using overlap::protocol::utf8_sequence;

namespace {

struct Row {
  const char* what;
  std::string bytes;
  std::size_t length;  // of the sequence it starts with; 0: none
};

const std::vector<Row> kTable = {
    {"ASCII", "A", 1},
    {"NUL", std::string(1, '\0'), 1},
    {"DEL", "\x7f", 1},
    {"U+0080, the first of two bytes", "\xc2\x80", 2},
    {"U+07FF, the last of two bytes", "\xdf\xbf", 2},
    {"U+0800, the first of three bytes", "\xe0\xa0\x80", 3},
    {"U+D7FF, below the surrogates", "\xed\x9f\xbf", 3},
    {"U+E000, above the surrogates", "\xee\x80\x80", 3},
    {"U+FFFF", "\xef\xbf\xbf", 3},
    {"U+10000, the first of four bytes", "\xf0\x90\x80\x80", 4},
    {"U+10FFFF, the last code point", "\xf4\x8f\xbf\xbf", 4},
    {"overlong NUL in two bytes", "\xc0\x80", 0},
    {"overlong '/' in two bytes", "\xc1\xbf", 0},
    {"overlong U+07FF in three bytes", "\xe0\x9f\xbf", 0},
    {"overlong U+FFFF in four bytes", "\xf0\x8f\xbf\xbf", 0},
    {"surrogate U+D800", "\xed\xa0\x80", 0},
    {"surrogate U+DFFF", "\xed\xbf\xbf", 0},
    {"U+110000, above U+10FFFF", "\xf4\x90\x80\x80", 0},
    {"lead 0xf5", "\xf5\x80\x80\x80", 0},
    {"lead 0xf8 (five bytes once)", "\xf8\x88\x80\x80\x80", 0},
    {"lead 0xfc (six bytes once)", "\xfc\x84\x80\x80\x80\x80", 0},
    {"lead 0xfe", "\xfe", 0},
    {"lead 0xff", "\xff", 0},
    {"lone continuation 0x80", "\x80", 0},
    {"lone continuation 0xbf", "\xbf", 0},
    {"truncated two bytes", "\xc3", 0},
    {"truncated three bytes", "\xe2\x82", 0},
    {"truncated four bytes", "\xf0\x9f\x98", 0},
    {"three bytes broken by ASCII",
     "\xe2\x82"
     "A",
     0},
    {"four bytes broken by a lead byte", "\xf0\x9f\x98\xc3", 0},
    {"two bytes then more", "\xc3\xa9\xff", 2},
    {"empty", "", 0},
};

// The other way round: decode the bits a lead byte announces, then check the code point.
std::size_t decoded_length(std::string_view s) {
  if (s.empty()) return 0;
  const auto b = [s](std::size_t i) {
    return static_cast<std::uint32_t>(static_cast<unsigned char>(s[i]));
  };
  std::size_t n = 0;
  std::uint32_t cp = 0;
  if (b(0) < 0x80) return 1;
  if ((b(0) & 0xe0) == 0xc0)
    n = 2, cp = b(0) & 0x1f;
  else if ((b(0) & 0xf0) == 0xe0)
    n = 3, cp = b(0) & 0x0f;
  else if ((b(0) & 0xf8) == 0xf0)
    n = 4, cp = b(0) & 0x07;
  else
    return 0;
  if (s.size() < n) return 0;
  for (std::size_t i = 1; i < n; ++i) {
    if ((b(i) & 0xc0) != 0x80) return 0;
    cp = (cp << 6) | (b(i) & 0x3f);
  }
  const std::uint32_t least[] = {0, 0, 0x80, 0x800, 0x10000};
  if (cp < least[n] || cp > 0x10ffff || (cp >= 0xd800 && cp <= 0xdfff)) return 0;
  return n;
}

bool well_formed(std::string_view s) {
  while (!s.empty()) {
    const std::size_t n = decoded_length(s);
    if (n == 0) return false;
    s.remove_prefix(n);
  }
  return true;
}

}  // namespace

BOOST_AUTO_TEST_SUITE(text)

BOOST_AUTO_TEST_CASE(the_validator_reads_each_sequence_of_the_table) {
  for (const Row& row : kTable) {
    BOOST_TEST_CONTEXT(row.what) {
      BOOST_TEST(utf8_sequence(row.bytes) == row.length);
      BOOST_TEST(decoded_length(row.bytes) == row.length);  // the table agrees with the decoder
    }
  }
}

BOOST_AUTO_TEST_CASE(the_validator_agrees_with_a_decoder_on_every_lead_byte) {
  // Every lead byte, followed by bytes at the edges of every range a second byte is checked
  // against.
  const unsigned char edges[] = {0x00, 0x41, 0x7f, 0x80, 0x8f, 0x90, 0x9f, 0xa0, 0xbf, 0xc0, 0xff};
  int disagreements = 0;
  for (int lead = 0; lead < 256; ++lead) {
    for (unsigned char b1 : edges) {
      for (unsigned char b2 : edges) {
        for (unsigned char b3 : edges) {
          const std::string s{static_cast<char>(lead), static_cast<char>(b1), static_cast<char>(b2),
                              static_cast<char>(b3)};
          for (std::size_t size = 1; size <= 4; ++size) {
            const std::string_view prefix(s.data(), size);
            if (utf8_sequence(prefix) != decoded_length(prefix)) ++disagreements;
          }
        }
      }
    }
  }
  BOOST_TEST(disagreements == 0);
}

BOOST_AUTO_TEST_CASE(escaped_text_shows_every_invalid_byte_as_hex_and_keeps_the_valid) {
  BOOST_TEST(escape_control("caf\xc3\xa9 \xe2\x82\xac \xf0\x9f\x98\x80") ==
             "caf\xc3\xa9 \xe2\x82\xac \xf0\x9f\x98\x80");
  BOOST_TEST(escape_control("a\xc0\x80z") == "a\\xc0\\x80z");
  BOOST_TEST(escape_control("\xed\xa0\x80") == "\\xed\\xa0\\x80");
  BOOST_TEST(escape_control("\xf4\x90\x80\x80") == "\\xf4\\x90\\x80\\x80");
  BOOST_TEST(escape_control("\xf5\xff") == "\\xf5\\xff");
  BOOST_TEST(escape_control("\x80!") == "\\x80!");
  BOOST_TEST(escape_control("\xe2\x82") == "\\xe2\\x82");
  BOOST_TEST(escape_control("\xe2\x82\xe2\x82\xac") == "\\xe2\\x82\xe2\x82\xac");
  // Controls, C1 ones included, are escaped though well-formed; newline and tab are kept.
  BOOST_TEST(escape_control("\x1b[2J\r\a\n\t\xc2\x9b") == "\\x1b[2J\\x0d\\x07\n\t\\xc2\\x9b");
}

BOOST_AUTO_TEST_CASE(escaped_text_is_well_formed_whatever_the_bytes) {
  // Every two-byte text, and every three-byte text that starts with a lead byte of three or
  // more: none escapes as ill-formed UTF-8.
  int ill_formed = 0;
  std::string s(2, '\0');
  for (int a = 0; a < 256; ++a) {
    for (int b = 0; b < 256; ++b) {
      s[0] = static_cast<char>(a), s[1] = static_cast<char>(b);
      if (!well_formed(escape_control(s))) ++ill_formed;
    }
  }
  s.resize(3);
  for (int a = 0xe0; a < 256; ++a) {
    for (int b = 0x80; b < 0xc0; ++b) {
      for (int c = 0; c < 256; ++c) {
        s[0] = static_cast<char>(a), s[1] = static_cast<char>(b), s[2] = static_cast<char>(c);
        if (!well_formed(escape_control(s))) ++ill_formed;
      }
    }
  }
  BOOST_TEST(ill_formed == 0);
}

BOOST_AUTO_TEST_SUITE_END()
