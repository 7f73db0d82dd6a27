// Adversarial: bytes that are not UTF-8, of every kind (overlong forms, a surrogate, a code point
// above U+10FFFF, a lone continuation, a truncated sequence, lead bytes 0xf5 to 0xff), on stdout
// and in an exception's message. Each is shown as \xNN: the JSON report is valid UTF-8, and
// replays.
#include <cstdio>
#include <overlap/pipeline.hpp>
#include <stdexcept>

namespace pp = overlap::pipeline;

namespace {

const char kNotUtf8[] =
    "overlong \xc0\xaf \xe0\x80\xaf \xf0\x80\x80\xaf; surrogate \xed\xa0\x80; above "
    "\xf4\x90\x80\x80; lone \x80; truncated \xe2\x82; lead \xf5 \xf8 \xfe \xff; fine \xc3\xa9";

}  // namespace

void train(pp::Pipeline&) {
  std::printf("%s\n", kNotUtf8);
  std::fflush(stdout);
  throw std::runtime_error(kNotUtf8);
}

OVERLAP_TRAIN(train)
