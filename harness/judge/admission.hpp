// What a submission's build may read and hand the assembler, checked by the judge after the
// compile (so every way of grading goes through it) and before any of the compiler's messages
// are shown (they could quote a file). Inside the build's empty root nothing else exists; these
// checks are the second line, for a grade without the namespaces (--no-sandbox) and a root that
// lets something through.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace overlap::judge {

// The files a make-style dependency file lists ("target: a b \<newline> c"; a space in a name
// is "\ ").
std::vector<std::string> dependency_file_entries(std::string_view text);

// The headers `clang++ -H` or `g++ -H` reports on stderr, one a line after dots that give the
// depth. Any other line is skipped; a line that only looks like one adds a file to refuse.
std::vector<std::string> reported_headers(std::string_view log);

// The first of `files` that is none of: `source`, a file under one of `allowed` (folders), after
// both are made canonical (links and `..` resolved, as the kernel would), or "" when every file
// may be read. A file that cannot be resolved is refused.
std::string refused_file(const std::vector<std::string>& files, const std::string& source,
                         const std::vector<std::string>& allowed);

// Assembly of the submission's own, found in clang's AST (-Xclang -ast-dump=json): an asm
// statement, a file-scope asm or an asm label, at its expansion location's actual file (never a
// `#line`-presumed one) and line. A submission is C++ alone: it never needs assembly, and its
// assembly is what could make the assembler read a file.
struct Assembly {
  std::string kind;  // as clang names it: GCCAsmStmt, MSAsmStmt, FileScopeAsmDecl, AsmLabelAttr
  std::string file;  // "" when clang gives it no location
  std::int64_t line = 0;
};

// The first assembly in `dump` (clang's JSON AST, read in order: a location names its file and
// line only where they change) whose file is under none of `allowed` (the system's and the kit's
// headers, canonical as the kernel resolves them); nothing when there is none. Throws
// std::runtime_error when `dump` is not such a dump.
std::optional<Assembly> assembly_outside(std::string_view dump,
                                         const std::vector<std::string>& allowed);

// The first symbol of `object` (a relocatable ELF-64 object, as clang++ writes it) whose name
// is none that C++ gives (letters, digits, `_`, `.`, `$`): a name made of assembly text, as an asm
// label a system header builds from a macro the submission redefines would be; "" when there is
// none. Throws std::runtime_error when `object` is no such object.
std::string strange_symbol(std::string_view object);

// What the assembler would read in `text` (g++'s assembly, -S) that g++ does not write for
// ordinary C++, or "" when there is nothing: each line split as a conservative reader would
// (strings as g++ escapes them; outside them any `;`, `#`, `/`, `'` or `\` refused, and a string
// that does not end on its line), labels skipped, and each directive on an allow-list of those
// g++ writes for C++, matched case-insensitively; between #APP and #NO_APP (inline assembly)
// only the system headers' harmless forms. The refusal names the line and what is on it.
std::string refused_assembly(std::string_view text);

}  // namespace overlap::judge
