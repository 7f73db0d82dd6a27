// Checks an exercise's hints: each one asks a question before it gives anything away, the last
// one describes the schedule in words and numbers (no code block), and none gives away the
// reference solution: no hint shares a run of six or more C++ tokens with it.
//
//   overlap-hint-check HINTS SOLUTION
//
// A hint starts at a line `**Hint N: title.**`; its question is the quotation that follows, up to
// the line `*Unlocks:*` where its answer starts. Both files are read as C++ tokens (identifiers,
// numbers, literals, punctuators; comments dropped); in the hints, the Markdown around prose and
// inline code is not part of any token. Exit 0 when every hint holds, 1 with every problem listed.
#include <fmt/format.h>

#include <algorithm>
#include <array>
#include <cctype>
#include <fstream>
#include <regex>
#include <set>
#include <sstream>
#include <string>
#include <string_view>
#include <vector>

namespace {

constexpr std::size_t kRun = 6;  // a shared run this long is a line of the solution handed over

struct Token {
  std::string text;
  int line;
};

std::string read_file(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) throw std::runtime_error("cannot read " + path);
  std::ostringstream text;
  text << in.rdbuf();
  return text.str();
}

bool ident_start(char c) { return std::isalpha(static_cast<unsigned char>(c)) || c == '_'; }
bool ident_char(char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '_'; }

// Appends the C++ tokens of `text`, whose first line is `line`.
void lex(std::string_view text, int line, std::vector<Token>& out) {
  static constexpr std::array<std::string_view, 27> kPunctuators = {
      "...", "<=>", "<<=", ">>=", "->*", "::", "->", ".*", "++", "--", "<<", ">>", "<=", ">=",
      "==",  "!=",  "&&",  "||",  "+=",  "-=", "*=", "/=", "%=", "&=", "|=", "^=", "##"};
  std::size_t i = 0;
  while (i < text.size()) {
    const char c = text[i];
    if (c == '\n') {
      ++line, ++i;
    } else if (text.substr(i, 2) == "//") {
      while (i < text.size() && text[i] != '\n') ++i;
    } else if (text.substr(i, 2) == "/*") {
      const std::size_t end = text.find("*/", i + 2);
      const std::size_t stop = end == std::string_view::npos ? text.size() : end + 2;
      for (; i < stop; ++i) line += text[i] == '\n';
    } else if (c == '"' || c == '\'') {
      std::size_t j = i + 1;
      while (j < text.size() && text[j] != c && text[j] != '\n') j += text[j] == '\\' ? 2 : 1;
      j = std::min(j + 1, text.size());
      out.push_back({std::string(text.substr(i, j - i)), line});
      i = j;
    } else if (ident_start(c)) {
      std::size_t j = i;
      while (j < text.size() && ident_char(text[j])) ++j;
      out.push_back({std::string(text.substr(i, j - i)), line});
      i = j;
    } else if (std::isdigit(static_cast<unsigned char>(c))) {
      std::size_t j = i;
      while (j < text.size() && (ident_char(text[j]) || text[j] == '.' || text[j] == '\'')) ++j;
      out.push_back({std::string(text.substr(i, j - i)), line});
      i = j;
    } else if (std::isspace(static_cast<unsigned char>(c)) ||
               !std::isprint(static_cast<unsigned char>(c)) || c == '`' || c == '@' || c == '$') {
      ++i;  // not part of any token (UTF-8 bytes among them)
    } else {
      std::size_t length = 1;
      for (std::string_view p : kPunctuators) {
        if (text.substr(i, p.size()) == p) {
          length = p.size();
          break;
        }
      }
      out.push_back({std::string(text.substr(i, length)), line});
      i += length;
    }
  }
}

// The tokens of a Markdown text: code blocks and inline code as C++, prose with its quotation
// marks, apostrophes and emphasis taken out (they would open literals or add stray `*`s).
std::vector<Token> lex_markdown(std::string_view text, int line) {
  std::vector<Token> out;
  std::istringstream in{std::string(text)};
  std::string block;
  int block_line = 0;
  bool in_block = false;
  for (std::string l; std::getline(in, l); ++line) {
    if (l.find("```") != std::string::npos && l.find_first_not_of(' ') == l.find("```")) {
      if (in_block) lex(block, block_line, out);
      in_block = !in_block, block.clear(), block_line = line + 1;
      continue;
    }
    if (in_block) {
      block += l + '\n';
      continue;
    }
    bool code = false;  // between backticks
    std::size_t start = 0;
    for (std::size_t i = 0; i <= l.size(); ++i) {
      if (i < l.size() && l[i] != '`') continue;
      std::string piece = l.substr(start, i - start);
      if (!code) {
        for (char& c : piece)
          if (c == '"' || c == '\'' || c == '*') c = ' ';
      }
      lex(piece, line, out);
      code = !code, start = i + 1;
    }
  }
  return out;
}

std::string joined(const std::vector<Token>& tokens, std::size_t from, std::size_t count) {
  std::string out;
  for (std::size_t k = from; k < from + count; ++k) out += (k > from ? " " : "") + tokens[k].text;
  return out;
}

struct Hint {
  int number;
  int line;  // of its heading
  std::string question;
  std::string answer;  // from the line `*Unlocks:*` on
  std::string text;    // all of it, heading to the next hint
};

std::vector<Hint> hints_of(const std::string& file) {
  static const std::regex heading(R"(^\*\*Hint (\d+):.*)");
  std::vector<Hint> out;
  std::istringstream in(file);
  int line = 0;
  bool in_answer = false;
  for (std::string l; std::getline(in, l);) {
    ++line;
    std::smatch m;
    if (std::regex_match(l, m, heading)) {
      const std::size_t close = l.find("**", 2);
      out.push_back({std::stoi(m[1].str()), line,
                     close == std::string::npos ? "" : l.substr(close + 2), "", l + '\n'});
      in_answer = false;
      continue;
    }
    if (out.empty()) continue;
    out.back().text += l + '\n';
    if (l.starts_with("*Unlocks:*")) in_answer = true;
    (in_answer ? out.back().answer : out.back().question) += '\n' + l;
  }
  return out;
}

std::string trim(const std::string& s) {
  const auto first = s.find_first_not_of(" \n");
  if (first == std::string::npos) return "";
  return s.substr(first, s.find_last_not_of(" \n") - first + 1);
}

}  // namespace

int main(int argc, char** argv) {
  if (argc != 3) {
    fmt::print(stderr, "usage: overlap-hint-check HINTS SOLUTION\n");
    return 2;
  }
  const std::string hints_path = argv[1], solution_path = argv[2];
  std::vector<std::string> errors;
  std::vector<Hint> hints;
  try {
    hints = hints_of(read_file(hints_path));
    std::vector<Token> solution;
    lex(read_file(solution_path), 1, solution);

    std::set<std::string> runs;  // every run of kRun tokens in the solution
    for (std::size_t k = 0; k + kRun <= solution.size(); ++k)
      runs.insert(joined(solution, k, kRun));

    if (hints.empty())
      errors.push_back(fmt::format("{}: no `**Hint N: ...**` heading", hints_path));
    for (std::size_t h = 0; h < hints.size(); ++h) {
      const Hint& hint = hints[h];
      const std::string where = fmt::format("{}:{}: hint {}", hints_path, hint.line, hint.number);
      if (hint.number != static_cast<int>(h) + 1)
        errors.push_back(fmt::format("{}: numbered {}, expected {}", where, hint.number, h + 1));
      const std::string question = trim(hint.question);
      if (!question.starts_with('"') || question.find('?') == std::string::npos ||
          question.find("```") != std::string::npos) {
        errors.push_back(
            fmt::format("{}: does not start with a question (a quotation with a "
                        "`?`, before `*Unlocks:*`)",
                        where));
      }
      if (hint.answer.empty())
        errors.push_back(fmt::format("{}: no answer (a line starting `*Unlocks:*`)", where));
      if (h + 1 == hints.size()) {  // the schedule in words and numbers
        if (hint.text.find("```") != std::string::npos)
          errors.push_back(fmt::format("{}: the last hint holds a code block", where));
        if (std::none_of(hint.answer.begin(), hint.answer.end(),
                         [](unsigned char c) { return std::isdigit(c); }))
          errors.push_back(fmt::format("{}: the last hint's answer gives no numbers", where));
      }

      // Maximal runs of the hint's tokens that are also in the solution.
      const std::vector<Token> tokens = lex_markdown(hint.text, hint.line);
      std::size_t k = 0;
      while (k + kRun <= tokens.size()) {
        if (!runs.contains(joined(tokens, k, kRun))) {
          ++k;
          continue;
        }
        std::size_t end = k + kRun;
        while (end < tokens.size() && runs.contains(joined(tokens, end + 1 - kRun, kRun))) ++end;
        errors.push_back(fmt::format("{}:{}: hint {} shares {} tokens with {}: {}", hints_path,
                                     tokens[k].line, hint.number, end - k, solution_path,
                                     joined(tokens, k, end - k)));
        k = end;
      }
    }
  } catch (const std::exception& e) {
    fmt::print(stderr, "overlap-hint-check: {}\n", e.what());
    return 2;
  }
  for (const std::string& e : errors) fmt::print(stderr, "{}\n", e);
  if (errors.empty())
    fmt::print("{}: {} hints, each a question first, none sharing {} tokens in a row with {}\n",
               hints_path, hints.size(), kRun, solution_path);
  return errors.empty() ? 0 : 1;
}
