// Well-formed UTF-8 as RFC 3629 defines it (section 4): the only byte sequences a report may
// carry as text, so that every JSON report parses (and replays) whatever a submission printed.
#pragma once

#include <cstddef>
#include <string_view>

namespace overlap::protocol {

// The length (1 to 4) of the well-formed UTF-8 sequence that `text` starts with, or 0 when it
// starts with none: an empty text, a continuation byte, a lead byte no sequence has (0xc0,
// 0xc1, 0xf5 to 0xff), an overlong form, a surrogate (U+D800 to U+DFFF), a code point above
// U+10FFFF, or a sequence cut short or broken by a byte that is not a continuation.
std::size_t utf8_sequence(std::string_view text);

}  // namespace overlap::protocol
