// The docs' figures. A time or a rate that changes with the machine appears only between markers
// naming its entry in harness/bench/figures.tsv (which the benchmarks write), with that entry's
// text; a constant of the kit (a limit, a test's parameter) only between `fixed` markers. Code is
// left out: fenced blocks and `spans` hold commands and the example report's simulated times.
#include <algorithm>
#include <boost/test/unit_test.hpp>
#include <filesystem>
#include <fstream>
#include <map>
#include <regex>
#include <set>
#include <sstream>
#include <string>
#include <vector>

namespace {

using Figures = std::map<std::string, std::string>;  // name -> text

std::string read(const std::string& path) {
  std::ifstream in(path);
  std::ostringstream text;
  text << in.rdbuf();
  return text.str();
}

const std::string kKit = OVERLAP_KIT_DIR;
// The docs that speak of the kit: no time or rate outside markers there. In the other Markdown
// files (briefs and guides, whose times are simulated or the interview's own minutes), marked
// figures are still checked against their entries.
const std::set<std::string> kStrict = {"README.md", "ARCHITECTURE.md", "CONTRIBUTING.md",
                                       "harness/sandbox/README.md"};

// Every Markdown file of the kit, relative to it, without build folders.
std::vector<std::string> markdown_files() {
  namespace fs = std::filesystem;
  std::vector<std::string> files;
  for (auto it = fs::recursive_directory_iterator(kKit); it != fs::recursive_directory_iterator();
       ++it) {
    const std::string name = it->path().filename().string();
    if (it->is_directory() && (name.starts_with("build") || name.starts_with("."))) {
      it.disable_recursion_pending();
    } else if (it->is_regular_file() && it->path().extension() == ".md") {
      files.push_back(fs::relative(it->path(), kKit).string());
    }
  }
  return files;
}

// The entries of figures.tsv: name, text, benchmark, date, cores. A malformed line is an entry
// named "" (which no marker can name), so that the test of the file sees it.
Figures parse_figures(const std::string& tsv) {
  Figures figures;
  std::istringstream in(tsv);
  static const std::regex entry(R"(^([a-z0-9.-]+)\t([^\t]+)\t[^\t]+\t\d{4}-\d\d-\d\d\t\d+$)");
  std::smatch match;
  for (std::string line; std::getline(in, line);) {
    if (line.empty() || line.starts_with('#')) continue;
    if (!std::regex_match(line, match, entry) || figures.contains(match[1])) {
      figures[""] += line + "\n";
    } else {
      figures[match[1]] = match[2];
    }
  }
  return figures;
}

// What is wrong with one doc, a line each ("<doc>:<line>: ..."), or "" when nothing is; with
// `strict`, a time or rate outside markers too.
std::string problems(const std::string& doc, const std::string& text, const Figures& figures,
                     bool strict = true) {
  static const std::regex fence(R"(^\s*```)");
  static const std::regex code_span("`[^`]*`");
  static const std::regex figure("<!-- figure ([a-z0-9.-]+) -->(.*?)<!-- /figure -->");
  static const std::regex fixed("<!-- fixed -->(.*?)<!-- /fixed -->");
  static const std::regex marker("<!-- /?(figure|fixed)");
  // A number with a unit of time, or a count of something a second.
  static const std::regex time(
      R"((^|[^\w.-])(\d+([.,]\d+)?\s?(µs|ns|ms|s|sec|seconds?|min|minutes?|h|hours?))(?!\w))");
  static const std::regex rate(
      R"(\d[\d.,]*( \d{3})*\s?(k|million|thousand)?( [A-Za-z-]+){0,3}( (a|per) second|/s)(?!\w))");
  std::string said;
  auto say = [&](int line, const std::string& what) {
    said += doc + ":" + std::to_string(line) + ": " + what + "\n";
  };
  std::istringstream in(text);
  bool in_fence = false;
  int number = 0;
  for (std::string line; std::getline(in, line);) {
    ++number;
    if (std::regex_search(line, fence)) {
      in_fence = !in_fence;
      continue;
    }
    if (in_fence) continue;
    std::string prose = std::regex_replace(line, code_span, " ");
    std::smatch match;
    for (std::string rest = prose; std::regex_search(rest, match, figure); rest = match.suffix()) {
      const auto entry = figures.find(match[1]);
      if (entry == figures.end()) {
        say(number, "figure " + match[1].str() + " is no entry of harness/bench/figures.tsv");
      } else if (entry->second != match[2]) {
        say(number, "figure " + match[1].str() + " reads \"" + match[2].str() + "\", its entry \"" +
                        entry->second + "\"");
      }
    }
    prose = std::regex_replace(std::regex_replace(prose, figure, " "), fixed, " ");
    if (std::regex_search(prose, marker)) say(number, "a marker not closed on its line");
    if (!strict) continue;
    for (const std::regex* figure_kind : {&time, &rate}) {
      for (std::string rest = prose; std::regex_search(rest, match, *figure_kind);
           rest = match.suffix()) {
        const std::string found = figure_kind == &time ? match[2].str() : match[0].str();
        say(number, "\"" + found + "\" outside markers");
      }
    }
  }
  return said;
}

}  // namespace

BOOST_AUTO_TEST_SUITE(doc_figures)

BOOST_AUTO_TEST_CASE(the_figures_file_is_well_formed) {
  const std::string tsv = read(kKit + "/harness/bench/figures.tsv");
  BOOST_TEST_REQUIRE(!tsv.empty());
  const Figures figures = parse_figures(tsv);
  const std::string malformed = figures.contains("") ? figures.at("") : "";
  BOOST_TEST(malformed == "", "malformed or repeated entries");
  BOOST_TEST(figures.size() > 1u);
}

BOOST_AUTO_TEST_CASE(the_docs_quote_the_figures_file_between_markers) {
  const Figures figures = parse_figures(read(kKit + "/harness/bench/figures.tsv"));
  const std::vector<std::string> files = markdown_files();
  for (const std::string& doc : kStrict) {
    BOOST_TEST((std::find(files.begin(), files.end(), doc) != files.end()), doc << " is missing");
  }
  for (const std::string& doc : files) {
    BOOST_TEST(problems(doc, read(kKit + "/" + doc), figures, kStrict.contains(doc)) == "");
  }
}

BOOST_AUTO_TEST_CASE(a_figure_outside_markers_or_unlike_its_entry_is_caught) {
  const Figures figures = {{"protocol.rate.two-cpus", "800 000 operations a second"},
                           {"edit-to-verdict.fsdp", "2.1 s"}};
  const auto check = [&](const std::string& text) { return problems("d", text, figures); };
  // Accepted: marked figures, constants, code, and numbers that are not times or rates.
  BOOST_TEST(check("fsdp <!-- figure edit-to-verdict.fsdp -->2.1 s<!-- /figure --> and "
                   "<!-- figure protocol.rate.two-cpus -->800 000 operations a second"
                   "<!-- /figure -->") == "");
  BOOST_TEST(check("a limit of <!-- fixed -->120 s<!-- /fixed --> of real time") == "");
  BOOST_TEST(check("run `--time-limit 5 s`\n```\nmakespan 2880 ms\n```\n") == "");
  BOOST_TEST(check("4 stages, 3 steps, 64 MiB, a 45-minute interview, a second grade") == "");
  // Rejected.
  BOOST_TEST(check("it takes 3.2 s") == "d:1: \"3.2 s\" outside markers\n");
  BOOST_TEST(check("x\n0.3 µs across, 2 minutes") ==
             "d:2: \"0.3 µs\" outside markers\nd:2: \"2 minutes\" outside markers\n");
  BOOST_TEST(check("700 000 to 900 000 operations a second") ==
             "d:1: \"900 000 operations a second\" outside markers\n");
  BOOST_TEST(check("about 800k ops/s") == "d:1: \"800k ops/s\" outside markers\n");
  BOOST_TEST(check("<!-- figure edit-to-verdict.fsdp -->2.4 s<!-- /figure -->") ==
             "d:1: figure edit-to-verdict.fsdp reads \"2.4 s\", its entry \"2.1 s\"\n");
  BOOST_TEST(check("<!-- figure first-grade.fsdp -->22 s<!-- /figure -->") ==
             "d:1: figure first-grade.fsdp is no entry of harness/bench/figures.tsv\n");
  BOOST_TEST(check("<!-- fixed -->120 s") ==
             "d:1: a marker not closed on its line\nd:1: \"120 s\" outside markers\n");
  // Where times are the doc's own (the interview's minutes), marked figures are still checked.
  BOOST_TEST(problems("g", "45 minutes <!-- figure edit-to-verdict.fsdp -->9 s<!-- /figure -->",
                      figures, false) ==
             "g:1: figure edit-to-verdict.fsdp reads \"9 s\", its entry \"2.1 s\"\n");
}

BOOST_AUTO_TEST_CASE(a_malformed_or_repeated_entry_is_caught) {
  BOOST_TEST(parse_figures("a.b\t1 s\tx.sh\t2026-11-28\t2\n").size() == 1u);
  BOOST_TEST(parse_figures("a.b\t1 s\n").contains(""));
  BOOST_TEST(
      parse_figures("a.b\t1 s\tx.sh\t2026-11-28\t2\na.b\t2 s\tx.sh\t2026-11-28\t2\n").contains(""));
}

BOOST_AUTO_TEST_SUITE_END()
