#include "files.hpp"

#include <fstream>
#include <iterator>

namespace overlap::judge {

std::optional<std::string> file_bytes(const std::string& path) {
  std::ifstream file(path, std::ios::binary | std::ios::ate);
  if (!file) return std::nullopt;
  // In one read where the size is known (a compiler's AST is tens of megabytes); else as it comes.
  std::string bytes;
  if (const std::streamoff size = file.tellg(); size > 0) {
    bytes.resize(static_cast<std::size_t>(size));
    file.seekg(0);
    file.read(bytes.data(), size);
    bytes.resize(static_cast<std::size_t>(file.gcount()));
    if (file.bad()) return std::nullopt;
    file.clear();
  } else {
    file.clear();
    file.seekg(0);
  }
  bytes.append(std::istreambuf_iterator<char>(file), std::istreambuf_iterator<char>());
  if (file.bad()) return std::nullopt;
  return bytes;
}

}  // namespace overlap::judge
