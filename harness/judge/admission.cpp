#include "admission.hpp"

#include <elf.h>

#include <algorithm>
#include <array>
#include <boost/json.hpp>
#include <cctype>
#include <cstring>
#include <filesystem>
#include <limits>
#include <map>
#include <stdexcept>

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

// Folders made canonical, once.
std::vector<fs::path> canonical_folders(const std::vector<std::string>& allowed) {
  std::vector<fs::path> folders;
  for (const std::string& folder : allowed) {
    std::error_code error;
    if (fs::path real = fs::canonical(folder, error); !error) folders.push_back(std::move(real));
  }
  return folders;
}

}  // namespace

std::string refused_file(const std::vector<std::string>& files, const std::string& source,
                         const std::vector<std::string>& allowed) {
  Resolver resolve;
  const fs::path submission = resolve(fs::absolute(source));
  const std::vector<fs::path> folders = canonical_folders(allowed);
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

namespace json = boost::json;

bool is_assembly(std::string_view kind) {
  return kind == "GCCAsmStmt" || kind == "MSAsmStmt" || kind == "FileScopeAsmDecl" ||
         kind == "AsmLabelAttr";
}

// Where the dump has got to: clang writes a location's file and line only when they change, so
// they are carried along the dump in the order it was written.
struct Place {
  std::string file;
  std::int64_t line = 0;
};

// Walks `value` in order, carrying `at` through every location it holds (an "includedFrom"
// names the includer, not a location); `visit` sees every object first, at the place before it.
// Without recursion: an AST is as deep as the submission's expressions are long.
template <class Visit>
void walk(const json::value& value, Place& at, const Visit& visit) {
  struct Frame {
    const json::value* value;
    std::size_t next = 0;  // the member or item to go on with
  };
  std::vector<Frame> stack = {{&value}};
  while (!stack.empty()) {
    Frame& frame = stack.back();
    if (const json::array* list = frame.value->if_array()) {
      if (frame.next == list->size()) {
        stack.pop_back();
      } else {
        stack.push_back({&(*list)[frame.next++]});
      }
      continue;
    }
    const json::object* object = frame.value->if_object();
    if (!object) {
      stack.pop_back();
      continue;
    }
    if (frame.next == 0) visit(*object, at);
    if (frame.next == object->size()) {
      stack.pop_back();
      continue;
    }
    const auto& member = *(object->begin() + frame.next++);
    if (member.key() == "includedFrom") continue;
    if (member.key() == "file" && member.value().is_string()) {
      at.file = member.value().get_string();
    } else if (member.key() == "line" && member.value().is_int64()) {
      at.line = member.value().get_int64();
    } else if (member.value().is_structured()) {
      stack.push_back({&member.value()});
    }
  }
}

// A node's expansion location: its "loc" (else its range's begin) read from `at`; a macro
// location writes its spelling first and its expansion last, so the place after it is the
// expansion's. Nothing when clang gives the node no location.
std::optional<Place> expansion_of(const json::object& node, Place at) {
  const json::value* loc = node.if_contains("loc");
  if (!loc || !loc->is_object() || loc->get_object().empty()) {
    const json::value* range = node.if_contains("range");
    loc = range && range->is_object() ? range->get_object().if_contains("begin") : nullptr;
  }
  if (!loc || !loc->is_object() || loc->get_object().empty()) return std::nullopt;
  walk(*loc, at, [](const json::object&, const Place&) {});
  return at;
}

}  // namespace

std::optional<Assembly> assembly_outside(std::string_view dump,
                                         const std::vector<std::string>& allowed) {
  // Parsed without a bound on depth, into memory released at once (no node is destroyed one by
  // one, however deep the tree).
  json::monotonic_resource memory;
  json::parse_options options;
  options.max_depth = std::numeric_limits<std::size_t>::max();
  boost::system::error_code error;
  const json::value tree = json::parse(dump, error, &memory, options);
  if (error || !tree.is_object() || !tree.get_object().contains("kind")) {
    throw std::runtime_error("the compiler's AST could not be read: " + error.message());
  }
  const std::vector<fs::path> folders = canonical_folders(allowed);
  Resolver resolve;
  std::optional<Assembly> found;
  Place at;
  walk(tree, at, [&](const json::object& node, const Place& before) {
    const json::value* kind = node.if_contains("kind");
    if (found || !kind || !kind->is_string() || !is_assembly(kind->get_string())) return;
    const std::optional<Place> place = expansion_of(node, before);
    Assembly a{std::string(kind->get_string()), place ? place->file : "", place ? place->line : 0};
    const fs::path real =
        fs::path(a.file).is_absolute() ? resolve(fs::path(a.file).lexically_normal()) : fs::path{};
    if (real.empty() || std::none_of(folders.begin(), folders.end(),
                                     [&](const fs::path& f) { return under(real, f); })) {
      found = std::move(a);
    }
  });
  return found;
}

namespace {

// `count` items of T at `offset` in `object`, copied out (the object's bytes need not be aligned
// for them), within its bounds.
template <class T>
std::vector<T> part(std::string_view object, std::uint64_t offset, std::uint64_t count) {
  if (offset > object.size() || count > (object.size() - offset) / sizeof(T)) {
    throw std::runtime_error("the compiler's object is not as its ELF headers describe it");
  }
  std::vector<T> items(static_cast<std::size_t>(count));
  std::memcpy(items.data(), object.data() + offset, items.size() * sizeof(T));
  return items;
}

bool cxx_name(std::string_view name) {
  return std::all_of(name.begin(), name.end(), [](unsigned char c) {
    return std::isalnum(c) || c == '_' || c == '.' || c == '$';
  });
}

}  // namespace

std::string strange_symbol(std::string_view object) {
  if (object.size() < sizeof(Elf64_Ehdr) || object.substr(0, SELFMAG) != ELFMAG ||
      object[EI_CLASS] != ELFCLASS64) {
    throw std::runtime_error("the compiler's object is not ELF-64");
  }
  const Elf64_Ehdr header = part<Elf64_Ehdr>(object, 0, 1)[0];
  const auto sections = part<Elf64_Shdr>(object, header.e_shoff, header.e_shnum);
  for (const Elf64_Shdr& table : sections) {
    if (table.sh_type != SHT_SYMTAB || table.sh_link >= sections.size()) continue;
    const Elf64_Shdr& names = sections[table.sh_link];
    const auto text = part<char>(object, names.sh_offset, names.sh_size);
    for (const Elf64_Sym& symbol :
         part<Elf64_Sym>(object, table.sh_offset, table.sh_size / sizeof(Elf64_Sym))) {
      const int type = ELF64_ST_TYPE(symbol.st_info);
      if (type == STT_FILE || type == STT_SECTION || symbol.st_name >= text.size()) continue;
      const std::string_view rest(text.data() + symbol.st_name, text.size() - symbol.st_name);
      const std::string_view name = rest.substr(0, rest.find('\0'));
      if (!cxx_name(name)) return std::string(name);
    }
  }
  return "";
}

namespace {

// The directives g++ writes for ordinary C++ (data, sections, symbols, debug lines, call frames).
constexpr std::array<std::string_view, 43> kGccDirectives = {
    ".2byte",   ".4byte",   ".8byte",      ".align",        ".ascii",         ".asciz",
    ".balign",  ".bss",     ".byte",       ".comm",         ".data",          ".file",
    ".globl",   ".hidden",  ".ident",      ".internal",     ".loc",           ".local",
    ".long",    ".p2align", ".popsection", ".previous",     ".protected",     ".pushsection",
    ".quad",    ".section", ".set",        ".short",        ".size",          ".skip",
    ".sleb128", ".string",  ".text",       ".type",         ".uleb128",       ".value",
    ".weak",    ".weakref", ".zero",       ".cfi_sections", ".cfi_startproc", ".cfi_endproc",
    ".symver"};

// What the system headers' inline assembly (between #APP and #NO_APP) may be: a pause, a nop, a
// compiler barrier (an empty line).
constexpr std::array<std::string_view, 4> kHeaderAsm = {"", "rep; nop", "pause", "nop"};

bool allowed_directive(std::string name) {
  std::transform(name.begin(), name.end(), name.begin(),
                 [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
  // The call-frame directives are a family of their own, none of which reads anything.
  if (name.starts_with(".cfi_")) return true;
  return std::find(kGccDirectives.begin(), kGccDirectives.end(), name) != kGccDirectives.end();
}

// A line's text outside its strings, or why it cannot be read as g++ writes: a string that does
// not end, or a character that starts a comment, a statement, a character constant or an escape.
std::optional<std::string> outside_strings(std::string_view line, std::string& why) {
  std::string out;
  bool in_string = false;
  for (std::size_t i = 0; i < line.size(); ++i) {
    const char c = line[i];
    if (in_string) {
      if (c == '\\') {
        ++i;  // the escaped character, whatever it is, stays in the string
      } else if (c == '"') {
        in_string = false;
        out += "\"\"";
      }
      continue;
    }
    if (c == '"') {
      in_string = true;
    } else if (c == ';' || c == '#' || c == '/' || c == '\'' || c == '\\') {
      why = std::string("`") + c + "` outside a string";
      return std::nullopt;
    } else {
      out += c;
    }
  }
  if (in_string) {
    why = "a string that does not end on its line";
    return std::nullopt;
  }
  return out;
}

// Skips the labels ("name:", ".L5:") that start a statement.
std::string_view after_labels(std::string_view statement) {
  for (;;) {
    const std::size_t start = statement.find_first_not_of(" \t");
    if (start == std::string_view::npos) return {};
    statement.remove_prefix(start);
    const std::size_t end = statement.find_first_not_of(
        "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_.$");
    if (end == std::string_view::npos || end == 0 || statement[end] != ':') return statement;
    statement.remove_prefix(end + 1);
  }
}

std::string_view trimmed(std::string_view text) {
  const std::size_t start = text.find_first_not_of(" \t");
  if (start == std::string_view::npos) return {};
  const std::size_t end = text.find_last_not_of(" \t\r");
  return text.substr(start, end - start + 1);
}

}  // namespace

std::string refused_assembly(std::string_view text) {
  bool inline_asm = false;
  std::size_t number = 0;
  while (!text.empty()) {
    const std::size_t end = std::min(text.find('\n'), text.size());
    const std::string_view line = text.substr(0, end);
    text.remove_prefix(std::min(end + 1, text.size()));
    ++number;
    const auto refuse = [&](const std::string& why) {
      return "line " + std::to_string(number) + " of its assembly, " +
             std::string(line.substr(0, 80)) + ": " + why;
    };
    const std::string_view bare = trimmed(line);
    if (bare == "#APP" || bare == "#NO_APP") {
      inline_asm = bare == "#APP";
      continue;
    }
    if (inline_asm) {
      if (std::find(kHeaderAsm.begin(), kHeaderAsm.end(), bare) == kHeaderAsm.end()) {
        return refuse("inline assembly");
      }
      continue;
    }
    std::string why;
    const std::optional<std::string> outside = outside_strings(line, why);
    if (!outside) return refuse(why);
    const std::string_view statement = after_labels(*outside);
    if (!statement.starts_with('.')) continue;  // an instruction, or nothing
    const std::string name(statement.substr(0, statement.find_first_of(" \t\",")));
    if (!allowed_directive(name)) return refuse("the directive " + name);
  }
  return "";
}

}  // namespace overlap::judge
