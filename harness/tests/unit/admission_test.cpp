// The judge's admission checks of a submission's build (grader/admission.hpp), the second line
// behind the build's empty root: dependency files and -H reports read, files resolved as the
// kernel resolves them, and every way a string literal can hand the assembler a file directive.
#include "../../judge/admission.hpp"

#include <unistd.h>

#include <boost/test/unit_test.hpp>
#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

using namespace overlap::judge;
namespace fs = std::filesystem;

namespace {

// A scratch tree: kit/include (allowed), kit/solutions (not), and links between them.
struct Tree {
  fs::path root;
  Tree() {
    std::string pattern = (fs::temp_directory_path() / "overlap-admission-XXXXXX").string();
    BOOST_REQUIRE(::mkdtemp(pattern.data()) != nullptr);
    root = pattern;
    fs::create_directories(root / "kit/include/overlap");
    fs::create_directories(root / "kit/solutions");
    fs::create_directories(root / "home");
    for (const char* file :
         {"kit/include/overlap/api.hpp", "kit/solutions/train.cpp", "home/train.cpp"}) {
      std::ofstream(root / file) << "//\n";
    }
  }
  ~Tree() { fs::remove_all(root); }
  std::string operator/(const std::string& relative) const { return (root / relative).string(); }
  std::string refused(const std::vector<std::string>& files) const {
    return refused_file(files, *this / "home/train.cpp", {*this / "kit/include"});
  }
};

}  // namespace

BOOST_AUTO_TEST_SUITE(admission)

BOOST_AUTO_TEST_CASE(a_dependency_file_lists_what_follows_its_target) {
  const auto files = dependency_file_entries(
      "/s/train.o: /s/train.cpp \\\n  /usr/include/c++/12/vector /a\\ b.hpp\n");
  BOOST_TEST(
      files == (std::vector<std::string>{"/s/train.cpp", "/usr/include/c++/12/vector", "/a b.hpp"}),
      boost::test_tools::per_element());
}

BOOST_AUTO_TEST_CASE(headers_reported_by_dash_h_are_read_at_any_depth) {
  const auto files = reported_headers(
      ". /usr/include/c++/12/vector\n"
      ".. /usr/include/features.h\n"
      "/s/train.cpp:3:10: fatal error: 'x.h' file not found\n"
      "Multiple include guards may be useful for:\n"
      "... /etc/shadow\n");
  BOOST_TEST(files == (std::vector<std::string>{"/usr/include/c++/12/vector",
                                                "/usr/include/features.h", "/etc/shadow"}),
             boost::test_tools::per_element());
}

BOOST_AUTO_TEST_CASE(the_submission_and_allowed_folders_pass) {
  const Tree t;
  BOOST_TEST(t.refused({t / "home/train.cpp", t / "kit/include/overlap/api.hpp",
                        t / "kit/include/overlap/../overlap/api.hpp"}) == "");
}

BOOST_AUTO_TEST_CASE(a_file_elsewhere_is_refused_by_its_name) {
  const Tree t;
  BOOST_TEST(t.refused({t / "kit/include/overlap/api.hpp", t / "kit/solutions/train.cpp"}) ==
             t / "kit/solutions/train.cpp");
}

BOOST_AUTO_TEST_CASE(a_link_under_an_allowed_folder_is_followed_as_the_kernel_would) {
  const Tree t;
  // include/up is "..": by its letters the path stays under include/, the kernel leaves it.
  fs::create_directory_symlink("..", t / "kit/include/up");
  const std::string through = t / "kit/include/up/up/../solutions/train.cpp";
  BOOST_TEST(fs::path(through).lexically_normal().string().starts_with(t / "kit/include"));
  BOOST_TEST(t.refused({through}) == through + " (" + (t / "kit/solutions/train.cpp") + ")");
  // A file that is itself a link out of the folder.
  fs::create_symlink(t / "kit/solutions/train.cpp", t / "kit/include/overlap/train.hpp");
  BOOST_TEST(t.refused({t / "kit/include/overlap/train.hpp"}) ==
             t / "kit/include/overlap/train.hpp (" + (t / "kit/solutions/train.cpp") + ")");
}

BOOST_AUTO_TEST_CASE(what_cannot_be_resolved_is_refused) {
  const Tree t;
  BOOST_TEST(t.refused({t / "kit/include/overlap/missing.hpp"}) ==
             t / "kit/include/overlap/missing.hpp");
  BOOST_TEST(t.refused({"relative/api.hpp"}) == "relative/api.hpp");
}

BOOST_AUTO_TEST_CASE(ordinary_text_and_asm_pass) {
  BOOST_TEST(assembler_file_directive(
                 "int main() { const char* s = \"include this\"; char c = '\"'; return 1'000; }\n"
                 "asm(\"nop\\n\\tmovl $1, %eax\"); static const char* t = \"a.include\";") == "");
  BOOST_TEST(assembler_file_directive("# 1 \"/usr/include/stdio.h\" 1 3 4\n") == "");
}

BOOST_AUTO_TEST_CASE(every_spelling_of_a_file_directive_is_found) {
  const std::vector<std::pair<std::string, std::string>> cases = {
      {R"(asm(".incbin \"/etc/shadow\"");)", ".incbin"},
      {R"(asm(".inc" "bin \"f\"");)", ".incbin"},             // adjacent literals joined
      {R"(asm(".inc\x62in \"f\"");)", ".incbin"},             // hex escape
      {R"(asm(".inc\142in \"f\"");)", ".incbin"},             // octal escape
      {R"(asm("\u002eincbin \"f\"");)", ".incbin"},           // universal character name
      {R"(asm(R"x(.incbin "f")x");)", ".incbin"},             // raw string
      {R"(asm(u8".INCBIN \"f\"");)", ".incbin"},              // prefix, upper case
      {R"(asm("nop; .include \"f\"");)", ".include"},         // a second statement
      {R"(asm("nop\n lbl: 1: .incbin \"f\"");)", ".incbin"},  // after labels
      {R"(asm("/* x */.incbin\"f\"");)", ".incbin"},          // after a comment, no space
      {R"(asm(".macro m a\n.\\a \"f\"\n.endm\nm incbin");)", ".macro"},
      {R"(asm(".irpc c,b\n.inc\\c\\()in \"f\"\n.endr");)", ".irpc"},
      {R"(asm(".rept 1\n.endr");)", ".rept"},
      {R"(int x __attribute__((section("d\n.incbin \"f\"\n#")));)", ".incbin"},
      {R"(int y asm("y\n.incbin \"f\"");)", ".incbin"},
  };
  for (const auto& [text, directive] : cases) {
    BOOST_TEST_CONTEXT(text) { BOOST_TEST(assembler_file_directive(text) == directive); }
  }
}

BOOST_AUTO_TEST_SUITE_END()
