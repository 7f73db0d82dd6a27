#include "files.hpp"

#include <fstream>
#include <sstream>

namespace overlap::judge {

std::optional<std::string> file_bytes(const std::string& path) {
  std::ifstream file(path, std::ios::binary);
  std::ostringstream bytes;
  bytes << file.rdbuf();
  if (!file) return std::nullopt;
  return std::move(bytes).str();
}

}  // namespace overlap::judge
