// What a submission's build may read and embed, checked by the judge after the compile (so
// every way of grading goes through it) and before any of the compiler's messages are shown
// (they could quote a file). Inside the build's empty root nothing else exists; these checks are
// the second line, for a grade without the namespaces (--no-sandbox) and a root that lets
// something through.
#pragma once

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

// A directive of the assembler that reads a file (.incbin, .include) or builds one from pieces
// (.macro, .irp, .irpc, .rept, .altmacro), in any string literal of a preprocessed translation
// unit (an asm statement, an asm label, a section name), escapes and raw strings decoded and
// adjacent literals joined: the directive found, or "".
std::string assembler_file_directive(std::string_view preprocessed);

}  // namespace overlap::judge
