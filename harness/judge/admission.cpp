#include "admission.hpp"

#include <algorithm>
#include <array>
#include <cctype>
#include <filesystem>
#include <map>

namespace overlap::judge {

namespace fs = std::filesystem;

std::vector<std::string> dependency_file_entries(std::string_view text) {
  std::vector<std::string> files;
  std::string name;
  bool after_target = false;
  for (std::size_t i = 0; i < text.size(); ++i) {
    const char c = text[i];
    if (c == '\\' && i + 1 < text.size() && text[i + 1] == ' ') {
      name += ' ', ++i;
    } else if (c == '\\' && i + 1 < text.size() && text[i + 1] == '\n') {
      ++i;
    } else if (c == ' ' || c == '\n') {
      if (!name.empty() && after_target) files.push_back(name);
      name.clear();
    } else if (c == ':' && !after_target &&
               (i + 1 == text.size() || text[i + 1] == ' ' || text[i + 1] == '\n')) {
      after_target = true, name.clear();
    } else {
      name += c;
    }
  }
  if (!name.empty() && after_target) files.push_back(name);
  return files;
}

std::vector<std::string> reported_headers(std::string_view log) {
  std::vector<std::string> files;
  while (!log.empty()) {
    const std::size_t end = std::min(log.find('\n'), log.size());
    const std::string_view line = log.substr(0, end);
    log.remove_prefix(std::min(end + 1, log.size()));
    const std::size_t dots = line.find_first_not_of('.');
    if (dots == 0 || dots == std::string_view::npos || line[dots] != ' ') continue;
    if (line.size() > dots + 1) files.emplace_back(line.substr(dots + 1));
  }
  return files;
}

namespace {

bool under(const fs::path& file, const fs::path& folder) {
  const auto rel = file.lexically_relative(folder);
  return !rel.empty() && *rel.begin() != "..";
}

// As the kernel resolves it. Folders are resolved once each: a translation unit reads a
// thousand headers from a few dozen folders.
class Resolver {
 public:
  fs::path operator()(const fs::path& file) {
    std::error_code error;
    const fs::path parent = file.parent_path();
    auto it = folders_.find(parent);
    if (it == folders_.end()) it = folders_.emplace(parent, fs::canonical(parent, error)).first;
    if (it->second.empty()) return {};
    fs::path real = it->second / file.filename();
    if (fs::is_symlink(real, error)) real = fs::canonical(real, error);
    if (error || !fs::exists(real, error)) return {};
    return real;
  }

 private:
  std::map<fs::path, fs::path> folders_;
};

}  // namespace

std::string refused_file(const std::vector<std::string>& files, const std::string& source,
                         const std::vector<std::string>& allowed) {
  Resolver resolve;
  const fs::path submission = resolve(fs::absolute(source));
  std::vector<fs::path> folders;
  for (const std::string& folder : allowed) {
    std::error_code error;
    if (fs::path real = fs::canonical(folder, error); !error) folders.push_back(std::move(real));
  }
  for (const std::string& file : files) {
    const fs::path path(file);
    const fs::path real = path.is_absolute() ? resolve(path.lexically_normal()) : fs::path{};
    if (real.empty()) return file;
    if (real == submission || std::any_of(folders.begin(), folders.end(),
                                          [&](const fs::path& f) { return under(real, f); })) {
      continue;
    }
    return real == path ? file : file + " (" + real.string() + ")";
  }
  return "";
}

namespace {

// The directives of the assembler that read a file, or can build one out of pieces.
constexpr std::array<std::string_view, 9> kFileDirectives = {
    ".incbin", ".include", ".macro", ".macros_on", ".irp", ".irpc", ".rept", ".rep", ".altmacro"};

// The first statement of `text` (as the assembler splits it: lines and `;`, C comments removed,
// labels skipped) that starts with one of kFileDirectives.
std::string file_directive_in(std::string text) {
  for (std::size_t open = text.find("/*"); open != std::string::npos;
       open = text.find("/*", open)) {
    const std::size_t close = text.find("*/", open + 2);
    text.replace(open, close == std::string::npos ? std::string::npos : close + 2 - open, " ");
  }
  std::size_t begin = 0;
  while (begin <= text.size()) {
    std::size_t end = text.find_first_of("\n\r;", begin);
    if (end == std::string::npos) end = text.size();
    std::string_view statement(text.data() + begin, end - begin);
    for (;;) {  // blanks and labels ("name:", "1:") before the operation
      const std::size_t start = statement.find_first_not_of(" \t\f\v");
      if (start == std::string_view::npos) {
        statement = {};
        break;
      }
      statement.remove_prefix(start);
      const std::size_t name_end = statement.find_first_not_of(
          "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_.$");
      if (name_end == std::string_view::npos || name_end == 0 || statement[name_end] != ':') break;
      statement.remove_prefix(name_end + 1);
    }
    std::string operation(statement.substr(0, statement.find_first_of(" \t\f\v\",")));
    std::transform(operation.begin(), operation.end(), operation.begin(),
                   [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
    if (std::find(kFileDirectives.begin(), kFileDirectives.end(), operation) !=
        kFileDirectives.end()) {
      return operation;
    }
    begin = end + 1;
  }
  return "";
}

void append_utf8(std::string& out, unsigned long code) {
  if (code < 0x80) {
    out += static_cast<char>(code);
  } else if (code < 0x800) {
    out += static_cast<char>(0xc0 | (code >> 6));
    out += static_cast<char>(0x80 | (code & 0x3f));
  } else if (code < 0x10000) {
    out += static_cast<char>(0xe0 | (code >> 12));
    out += static_cast<char>(0x80 | ((code >> 6) & 0x3f));
    out += static_cast<char>(0x80 | (code & 0x3f));
  } else {
    out += static_cast<char>(0xf0 | ((code >> 18) & 0x07));
    out += static_cast<char>(0x80 | ((code >> 12) & 0x3f));
    out += static_cast<char>(0x80 | ((code >> 6) & 0x3f));
    out += static_cast<char>(0x80 | (code & 0x3f));
  }
}

int digit_value(char c, int base) {
  const int v = std::isdigit(static_cast<unsigned char>(c)) ? c - '0'
                : std::isxdigit(static_cast<unsigned char>(c))
                    ? std::tolower(static_cast<unsigned char>(c)) - 'a' + 10
                    : 99;
  return v < base ? v : -1;
}

// Decodes the literal whose opening quote is at `at` (escapes, or raw when `raw`); returns the
// position after its closing quote.
std::size_t decode_literal(std::string_view t, std::size_t at, bool raw, std::string& out) {
  std::size_t i = at + 1;
  if (raw) {
    const std::size_t paren = t.find('(', i);
    if (paren == std::string_view::npos) return t.size();
    const std::string close = ")" + std::string(t.substr(i, paren - i)) + "\"";
    const std::size_t end = t.find(close, paren + 1);
    if (end == std::string_view::npos) return t.size();
    out.append(t.substr(paren + 1, end - paren - 1));
    return end + close.size();
  }
  while (i < t.size() && t[i] != '"' && t[i] != '\n') {
    if (t[i] != '\\' || i + 1 >= t.size()) {
      out += t[i++];
      continue;
    }
    const char e = t[i + 1];
    i += 2;
    switch (e) {
      case 'n':
        out += '\n';
        break;
      case 't':
        out += '\t';
        break;
      case 'r':
        out += '\r';
        break;
      case 'v':
        out += '\v';
        break;
      case 'f':
        out += '\f';
        break;
      case 'a':
        out += '\a';
        break;
      case 'b':
        out += '\b';
        break;
      case '\n':
        break;  // a spliced line
      case 'x': {
        unsigned long v = 0;
        for (int d; i < t.size() && (d = digit_value(t[i], 16)) >= 0; ++i) v = v * 16 + d;
        out += static_cast<char>(v & 0xff);
        break;
      }
      case 'u':
      case 'U': {
        unsigned long v = 0;
        for (int n = e == 'u' ? 4 : 8, d; n > 0 && i < t.size() && (d = digit_value(t[i], 16)) >= 0;
             --n, ++i) {
          v = v * 16 + d;
        }
        append_utf8(out, v);
        break;
      }
      default:
        if (digit_value(e, 8) >= 0) {
          unsigned long v = static_cast<unsigned long>(e - '0');
          for (int n = 2, d; n > 0 && i < t.size() && (d = digit_value(t[i], 8)) >= 0; --n, ++i) {
            v = v * 8 + d;
          }
          out += static_cast<char>(v & 0xff);
        } else {
          out += e;  // \\ \" \' \? and the rest
        }
    }
  }
  return i + 1;
}

bool identifier_char(char c) {
  return std::isalnum(static_cast<unsigned char>(c)) || c == '_' || c == '$';
}

}  // namespace

std::string assembler_file_directive(std::string_view t) {
  std::string joined;  // adjacent literals, as the compiler joins them
  for (std::size_t i = 0; i < t.size();) {
    const char c = t[i];
    if (std::isspace(static_cast<unsigned char>(c))) {
      ++i;
      continue;
    }
    bool literal = c == '"', raw = false;
    std::size_t quote = i;
    if (!literal && identifier_char(c) && !std::isdigit(static_cast<unsigned char>(c))) {
      std::size_t end = i;
      while (end < t.size() && identifier_char(t[end])) ++end;
      const std::string_view word = t.substr(i, end - i);
      static constexpr std::array<std::string_view, 9> kPrefixes = {"u8",  "u",  "U",  "L", "R",
                                                                    "u8R", "uR", "UR", "LR"};
      if (end < t.size() && t[end] == '"' &&
          std::find(kPrefixes.begin(), kPrefixes.end(), word) != kPrefixes.end()) {
        literal = true, raw = word.back() == 'R', quote = end;
      } else {
        i = end;
      }
    }
    if (literal) {
      i = decode_literal(t, quote, raw, joined);
      continue;
    }
    if (!joined.empty()) {
      if (std::string found = file_directive_in(std::move(joined)); !found.empty()) return found;
      joined.clear();
    }
    if (c == '\'') {  // a character literal: skipped whole, its quote is not a string's
      for (++i; i < t.size() && t[i] != '\'' && t[i] != '\n'; ++i) {
        if (t[i] == '\\') ++i;
      }
      ++i;
    } else if (std::isdigit(static_cast<unsigned char>(c))) {  // digit separators: 1'000
      while (i < t.size() && (identifier_char(t[i]) || t[i] == '.' || t[i] == '\'')) ++i;
    } else if (!identifier_char(c)) {
      ++i;
    }
  }
  return joined.empty() ? "" : file_directive_in(std::move(joined));
}

}  // namespace overlap::judge
