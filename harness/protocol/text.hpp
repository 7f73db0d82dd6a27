// Text the other side supplies (a submission's exception messages, its output), made safe to
// show: it cannot move the cursor, repaint the terminal or forge a line of the report's.
#pragma once

#include <string>
#include <string_view>

namespace overlap::protocol {

// `text` with every control character (C0, DEL and C1) but newline and tab, and every byte that
// is not part of well-formed UTF-8 (utf8.hpp), shown as \xNN: valid UTF-8 whatever `text` is.
std::string escape_control(std::string_view text);

}  // namespace overlap::protocol
