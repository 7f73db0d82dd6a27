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

// g++'s assembly, line by line: what it writes for C++ passes; anything a reader could take
// for a second statement, a comment, a macro or a file is refused, naming the line.
BOOST_AUTO_TEST_CASE(the_assembly_splitter_against_a_table) {
  const std::vector<std::pair<std::string, std::string>> cases = {
      // What g++ writes: labels, directives, instructions, strings with every escape it uses.
      {"\t.file\t\"train.cpp\"\n\t.text\n.LFB0:\n\t.cfi_startproc\n\tpushq\t%rbp\n", ""},
      {"_Z5trainRN7overlap8pipeline8PipelineE:\n\tmovl\t$1, %eax\n\tret\n", ""},
      {"\t.string\t\"a; b /* c */ # d / e ' f\"\n", ""},
      {"\t.string\t\"quote \\\" backslash \\\\ octal \\012 tab \\t\"\n", ""},
      {"\t.section\t.text._Z1fv,\"axG\",@progbits,_Z1fv,comdat\n\t.weak\t_Z1fv\n", ""},
      {"\t.SECTION\t.data\n\t.Byte\t1\n", ""},  // directives in any case
      {"#APP\n\trep; nop\n\n#NO_APP\n", ""},    // a system header's pause
      {"\t.cfi_escape 0x10,0x6\n\t.uleb128 0x3\n", ""},
      // What it never writes.
      {"\tnop; .incbin \"f\"\n",
       "line 1 of its assembly, \tnop; .incbin \"f\": `;` outside a string"},
      {"\t.text /* c */\n", "`/` outside a string"},
      {"/ a comment to the line's end\n", "`/` outside a string"},
      {"\t.byte 1 # .incbin\n", "`#` outside a string"},
      {"\t.byte '\"\n", "`'` outside a string"},
      {"\t.byte \\\n", "`\\` outside a string"},
      {"\t.section \"d\n.incbin \"f\"\n", "a string that does not end on its line"},
      {".text\n\t.incbin\t\"/etc/passwd\"\n",
       "line 2 of its assembly, \t.incbin\t\"/etc/passwd\": the directive .incbin"},
      {"\t.INCBIN \"f\"\n", "the directive .INCBIN"},
      {"lbl: 1: .include \"f\"\n", "the directive .include"},
      {"\t.macro m\n", "the directive .macro"},
      {"\t.irpc c,b\n", "the directive .irpc"},
      {"#APP\n\tmovl $1, %eax\n#NO_APP\n", "inline assembly"},
      {"#APP\n.incbin \"f\"\n#NO_APP\n", "inline assembly"},
      {"# 1 \"x\"\n", "`#` outside a string"},
  };
  for (const auto& [text, refused] : cases) {
    BOOST_TEST_CONTEXT(text) {
      const std::string got = refused_assembly(text);
      if (refused.empty()) {
        BOOST_TEST(got == "");
      } else {
        BOOST_TEST(got.find(refused) != std::string::npos, "got: " << got);
      }
    }
  }
}

// clang's AST as -ast-dump=json writes it: a location names its file and line only where they
// change, an "includedFrom" names the includer, a macro's location its spelling then its
// expansion.
BOOST_AUTO_TEST_CASE(assembly_is_found_where_clang_locates_it) {
  const Tree t;
  const std::string header = t / "kit/include/overlap/api.hpp";
  const std::vector<std::string> allowed = {t / "kit/include"};
  const auto dump = [&](const std::string& inner) {
    return R"({"id":"0x1","kind":"TranslationUnitDecl","loc":{},"range":{"begin":{},"end":{}},"inner":[)" +
           inner + "]}";
  };
  const std::string in_header =
      R"({"kind":"FunctionDecl","loc":{"offset":3,"file":")" + header +
      R"(","line":7,"col":1,"tokLen":3,"includedFrom":{"file":"/elsewhere.cpp"}}})";
  // An asm statement in the kit's header passes; one in the submission is found with its line.
  BOOST_TEST(!assembly_outside(
      dump(in_header + R"(,{"kind":"GCCAsmStmt","range":{"begin":{"offset":9,"col":2}}})"),
      allowed));
  const auto found = assembly_outside(
      dump(
          in_header +
          R"(,{"kind":"VarDecl","loc":{"offset":1,"file":"/work/train.cpp","line":4,"col":1}},)" +
          R"({"kind":"AsmLabelAttr","range":{"begin":{"offset":9,"line":5,"col":9,"includedFrom":{"file":")" +
          header + R"("}}}})"),
      allowed);
  BOOST_REQUIRE(found);
  BOOST_TEST(found->kind == "AsmLabelAttr");
  BOOST_TEST(found->file == "/work/train.cpp");
  BOOST_TEST(found->line == 5);
  // A macro's: the expansion's file decides, though the spelling is in the header.
  const auto expanded = assembly_outside(
      dump(R"({"kind":"FileScopeAsmDecl","loc":{"spellingLoc":{"offset":1,"file":")" + header +
           R"(","line":2},"expansionLoc":{"offset":5,"file":"/work/train.cpp","line":9}}})"),
      allowed);
  BOOST_REQUIRE(expanded);
  BOOST_TEST(expanded->line == 9);
  // Its reverse: spelled in the submission, expanded in the header: the header's.
  BOOST_TEST(!assembly_outside(
      dump(
          R"({"kind":"GCCAsmStmt","loc":{"spellingLoc":{"offset":1,"file":"/work/train.cpp","line":2},"expansionLoc":{"offset":5,"file":")" +
          header + R"(","line":9}}})"),
      allowed));
  // No location at all: refused, for nothing says where it is.
  BOOST_TEST(assembly_outside(
                 dump(R"({"kind":"MSAsmStmt","loc":{},"range":{"begin":{},"end":{}}})"), allowed)
                 .has_value());
  BOOST_CHECK_THROW(assembly_outside("not json", allowed), std::runtime_error);
}

BOOST_AUTO_TEST_SUITE_END()
