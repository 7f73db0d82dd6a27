// SHA-256 (FIPS 180-4) of a file's bytes, as lowercase hex: the submission's fingerprint in the
// report's provenance.
#pragma once

#include <string>
#include <string_view>

namespace overlap::judge {

std::string sha256_hex(std::string_view bytes);

}  // namespace overlap::judge
