// Reading a whole file, the one way the judge does.
#pragma once

#include <optional>
#include <string>

namespace overlap::judge {

// The file's bytes, or nothing when it cannot be opened or read.
std::optional<std::string> file_bytes(const std::string& path);

}  // namespace overlap::judge
