// Grade's options are the judge's table: the README's list names each of them and nothing else,
// and a usage error lists them as the table has them.
#include "../../judge/options.hpp"

#include <boost/test/unit_test.hpp>
#include <fstream>
#include <regex>
#include <set>
#include <sstream>
#include <string>

namespace {

// The options the README's command lines give grade: the first option of each line
// `./overlap grade <exercise> --option ...` (its code blocks' lines, not its prose).
std::set<std::string> readme_options(const std::string& readme) {
  static const std::regex grade_line(R"(^\./overlap grade [a-z-]+ +(--[a-z-]+))");
  std::set<std::string> names;
  std::istringstream in(readme);
  std::smatch match;
  for (std::string line; std::getline(in, line);) {
    if (std::regex_search(line, match, grade_line)) names.insert(match[1]);
  }
  return names;
}

std::set<std::string> table_options() {
  const auto options = overlap::judge::grade_options();
  std::set<std::string> names;
  for (const auto& option : options.options()) {
    names.insert("--" + option->long_name());
  }
  return names;
}

// How the README's list differs from the table, or "" when they agree.
std::string difference(const std::set<std::string>& readme, const std::set<std::string>& table) {
  std::string missed, invented;
  for (const std::string& name : table) {
    if (!readme.contains(name)) missed += " " + name;
  }
  for (const std::string& name : readme) {
    if (!table.contains(name)) invented += " " + name;
  }
  std::string said;
  if (!missed.empty()) said += "the README misses" + missed;
  if (!invented.empty()) said += (said.empty() ? "" : "; ") + ("the README invents" + invented);
  return said;
}

std::string kit_readme() {
  std::ifstream in(OVERLAP_KIT_DIR "/README.md");
  std::ostringstream text;
  text << in.rdbuf();
  return text.str();
}

}  // namespace

BOOST_AUTO_TEST_SUITE(options)

BOOST_AUTO_TEST_CASE(readme_lists_grade_options_as_the_judge_has_them) {
  const std::string readme = kit_readme();
  BOOST_TEST_REQUIRE(!readme.empty());
  BOOST_TEST(difference(readme_options(readme), table_options()) == "");
}

BOOST_AUTO_TEST_CASE(a_readme_that_misses_or_invents_an_option_is_caught) {
  const std::string readme = kit_readme();
  // Without the line of --seed, and with an option no judge has.
  const std::string without_seed =
      std::regex_replace(readme, std::regex(R"(\n\./overlap grade pipeline --seed [^\n]*)"), "");
  BOOST_TEST(difference(readme_options(without_seed), table_options()) ==
             "the README misses --seed");
  const std::string with_fast = readme + "\n./overlap grade pipeline --fast   # faster\n";
  BOOST_TEST(difference(readme_options(with_fast), table_options()) == "the README invents --fast");
}

BOOST_AUTO_TEST_CASE(a_usage_error_lists_the_table_in_order_with_value_names) {
  const std::string list = overlap::judge::grade_option_list();
  BOOST_TEST(list.starts_with(
      "--solution, --submission FILE, --compiler clang|gcc, --scenario NAME, --seed S, "
      "--generated N, --replay FILE"));
  BOOST_TEST(list.find("--time-limit S,") != std::string::npos);
  BOOST_TEST(list.find("(=") == std::string::npos);  // no default of program_options' showing
  for (const std::string& name : table_options()) BOOST_TEST(list.find(name) != std::string::npos);
}

BOOST_AUTO_TEST_SUITE_END()
