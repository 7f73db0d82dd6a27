#include "build.hpp"

#include <fcntl.h>
#include <signal.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <filesystem>
#include <fstream>
#include <map>
#include <optional>
#include <sstream>
#include <stdexcept>
#include <thread>
#include <vector>

#include "../protocol/text.hpp"
#include "../sandbox/empty_root.hpp"
#include "admission.hpp"
#include "files.hpp"

namespace overlap::judge {

namespace {

namespace fs = std::filesystem;

struct Recipe {
  std::vector<std::string> compile, link;
  std::map<std::string, std::string> launcher, header;  // by exercise
  std::string pch;  // the folder of the precompiled header, which the compile reads
};

Recipe load_recipe() {
  std::ifstream in(OVERLAP_BUILD_RECIPE);
  if (!in) throw std::runtime_error("no build recipe at " OVERLAP_BUILD_RECIPE);
  Recipe r;
  std::string line, section;
  while (std::getline(in, line)) {
    if (line.empty()) continue;
    if (line.front() == '[') {
      section = line;
    } else if (section == "[compile]") {
      r.compile.push_back(line);
    } else if (section == "[link]") {
      r.link.push_back(line);
    } else if (section == "[pch]") {
      r.pch = line;
    } else {
      const auto space = line.find(' ');
      (section == "[launcher]" ? r.launcher : r.header)[line.substr(0, space)] =
          line.substr(space + 1);
    }
  }
  return r;
}

std::string fill(std::string arg, const std::map<std::string, std::string>& values) {
  for (const auto& [key, value] : values) {
    for (auto at = arg.find(key); at != std::string::npos; at = arg.find(key, at + value.size())) {
      arg.replace(at, key.size(), value);
    }
  }
  return arg;
}

// The build's limits: a compile needs about a gigabyte of address space; an object past
// kMaxOutput is a build error, not a disk filled.
constexpr rlim_t kAddressSpace = rlim_t{4} << 30;
constexpr rlim_t kMaxOutput = rlim_t{64} << 20;

// One step of the build (compile, parse or preprocess, assemble, link) running in the build's
// empty root, or as the judge's user without it, its messages into `log` and its standard output
// there too, or into `output` when one is named.
class Step {
 public:
  Step(const std::vector<std::string>& args, const sandbox::EmptyRoot* root, const std::string& log,
       double seconds, const std::string& output = "") {
    const int out = ::open(log.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
    if (out < 0) throw std::runtime_error("cannot write " + log);
    const int standard =
        output.empty() ? ::dup(out)
                       : ::open(output.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
    if (standard < 0) throw std::runtime_error("cannot write " + (output.empty() ? log : output));
    std::vector<char*> argv;
    for (const auto& a : args) argv.push_back(const_cast<char*>(a.c_str()));
    argv.push_back(nullptr);
    const rlim_t cpu = static_cast<rlim_t>(seconds) + 1;
    pid_ = ::fork();
    if (pid_ < 0) throw std::runtime_error("fork failed");
    if (pid_ == 0) {
      ::setpgid(0, 0);
      const int in = ::open("/dev/null", O_RDONLY);
      if (in < 0 || ::dup2(in, 0) < 0 || ::dup2(standard, 1) < 0 || ::dup2(out, 2) < 0) {
        ::_exit(126);
      }
      ::close_range(3, ~0U, 0);  // nothing of the judge's (nor of whoever started it) goes in
      for (const auto& [resource, value] : {std::pair{RLIMIT_CPU, cpu},
                                            {RLIMIT_AS, kAddressSpace},
                                            {RLIMIT_FSIZE, kMaxOutput},
                                            {RLIMIT_CORE, rlim_t{0}}}) {
        const rlimit r{value, value};
        if (::setrlimit(resource, &r) != 0) ::_exit(126);
      }
      char* env[] = {const_cast<char*>("PATH=/usr/bin:/bin"), const_cast<char*>("LANG=C.UTF-8"),
                     nullptr};
      if (root) root->enter(env);
      ::execve(argv[0], argv.data(), env);
      ::_exit(127);
    }
    ::setpgid(pid_, pid_);
    ::close(out);
    ::close(standard);
  }
  ~Step() {
    if (!done_) {
      ::kill(-pid_, SIGKILL);
      wait(std::chrono::steady_clock::time_point::max());
    }
  }
  Step(const Step&) = delete;
  Step& operator=(const Step&) = delete;

  // Its exit status (128 + N for signal N, as a sandbox reports it), or -1 past the deadline
  // (then it is killed).
  int wait(std::chrono::steady_clock::time_point deadline) {
    int status = 0;
    while (::waitpid(pid_, &status, WNOHANG) == 0) {
      if (std::chrono::steady_clock::now() > deadline) {
        ::kill(-pid_, SIGKILL);
        ::waitpid(pid_, &status, 0);
        done_ = true;
        return -1;
      }
      std::this_thread::sleep_for(std::chrono::milliseconds(2));
    }
    done_ = true;
    return WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
  }

 private:
  pid_t pid_ = -1;
  bool done_ = false;
};

std::string read_file(const std::string& path) { return file_bytes(path).value_or(""); }

// Whether this judge builds with clang++, whose own parse admits a submission (its AST); g++'s
// builds are admitted by the assembly text it writes.
constexpr bool kClang = std::string_view(OVERLAP_COMPILER).starts_with("clang++");

// The compile's command, made into the admission's: without its dependency file and its object,
// `-c` replaced by `instead`, its output to `output` (or none).
std::vector<std::string> compile_made_into(const std::vector<std::string>& compile,
                                           std::initializer_list<const char*> instead,
                                           const std::string& output) {
  std::vector<std::string> args;
  for (std::size_t i = 0; i < compile.size(); ++i) {
    if (compile[i] == "-MD") continue;
    if (compile[i] == "-MF") {
      ++i;
    } else if (compile[i] == "-o") {
      if (!output.empty()) args.insert(args.end(), {"-o", output});
      ++i;
    } else if (compile[i] == "-c") {
      args.insert(args.end(), instead.begin(), instead.end());
    } else {
      args.push_back(compile[i]);
    }
  }
  return args;
}

// The compile made to write assembly (-S) to `assembly` instead of an object: g++'s, which the
// judge reads before the assembler does.
std::vector<std::string> compile_to_assembly(std::vector<std::string> compile,
                                             const std::string& assembly) {
  for (std::size_t i = 0; i < compile.size(); ++i) {
    if (compile[i] == "-c") compile[i] = "-S";
    if (compile[i] == "-o" && i + 1 < compile.size()) compile[i + 1] = assembly;
  }
  return compile;
}

// Folders a submission's compile may read besides the submission: the kit's public headers, the
// client's entry and the protocol it includes, the precompiled header, the system's headers.
std::vector<std::string> readable_folders(const fs::path& pch) {
  const fs::path kit = fs::path(OVERLAP_SOURCE_DIR) / "harness";
  std::vector<std::string> folders = {kit / "include", kit / "client", kit / "protocol", pch,
                                      "/usr/include",  "/usr/lib/gcc"};
  std::error_code error;
  for (const auto& entry : fs::directory_iterator("/usr/lib", error)) {
    if (entry.path().filename().string().starts_with("llvm-")) folders.push_back(entry.path());
  }
  return folders;
}

// The root a build step sees: /usr, three devices, a small /tmp, `out` to write in.
sandbox::EmptyRoot build_root(const fs::path& out) {
  sandbox::EmptyRoot root;
  root.system(true).tmp(kMaxOutput).writable(out).workdir(out);
  for (const char* device : {"/dev/null", "/dev/zero", "/dev/urandom"}) root.device(device);
  return root;
}

// A step the sandbox could not start is the kit's failure, never the submission's: bubblewrap
// and EmptyRoot::enter say so on the step's first line, where a compiler names a file.
void check_started(const std::string& log) {
  const std::string text = read_file(log);
  const std::string first = text.substr(0, text.find('\n'));
  if (first.starts_with("bwrap: ") || first.starts_with("overlap sandbox: ")) {
    throw std::runtime_error("the sandbox did not start the compiler: " + first);
  }
}

// Whether a step was stopped at the output limit (`statuses`, as Step::wait returns them) or
// left a file that reached it.
bool over_output_limit(const fs::path& out, std::initializer_list<int> statuses) {
  for (const int status : statuses) {
    if (status == 128 + SIGXFSZ) return true;
  }
  std::error_code error;
  for (const auto& entry : fs::directory_iterator(out, error)) {
    if (entry.is_regular_file(error) && entry.file_size(error) >= kMaxOutput) return true;
  }
  return false;
}

// What a refusal of what the compile read adds.
constexpr const char* kMayInclude =
    "a submission may include the kit's public headers (<overlap/...>), the C++ standard library "
    "and Boost only";

// What a refusal of assembly adds.
constexpr const char* kNoAssembly =
    ": a submission is C++ alone, without assembly of its own (asm statements, file-scope asm, "
    "asm labels)";

std::string assembly_named(const std::string& kind) {
  if (kind == "AsmLabelAttr") return "an asm label";
  if (kind == "FileScopeAsmDecl") return "a file-scope asm";
  return "an asm statement";
}

BuildFailure too_big() {
  return {"the build's output is over its limit of " + std::to_string(kMaxOutput >> 20) +
          " MiB (an object or program that large is a build error)"};
}

}  // namespace

bool builds_with_clang() { return kClang; }

std::string launcher_of(const std::string& exercise) {
  const Recipe recipe = load_recipe();
  if (!recipe.launcher.contains(exercise)) {
    throw std::runtime_error("the build recipe has no launcher for " + exercise);
  }
  return recipe.launcher.at(exercise);
}

namespace {

// The build's files in `scratch`: the submission's copy, the compiler's output, and the stage
// where root binds the rest for nobody.
struct Staging {
  fs::path file;   // the submission's path, as the candidate has it
  fs::path copy;   // its bytes as the grade read them
  fs::path out;    // what the compiler writes
  fs::path stage;  // the binds' staging folder
};

Staging stage_submission(const std::string& source, const std::string& text,
                         const std::string& scratch) {
  // The compiler's messages name the file where the candidate has it.
  const fs::path file = fs::canonical(source);
  Staging s{file, fs::path(scratch) / "source" / file.filename(), fs::path(scratch) / "out",
            fs::path(scratch) / "stage"};
  fs::create_directories(s.copy.parent_path());
  fs::create_directory(s.out);
  fs::create_directory(s.stage);
  // The file as the grade read it, even if it is saved again while this builds.
  if (!(std::ofstream(s.copy, std::ios::binary) << text)) {
    throw std::runtime_error("cannot copy the submission to " + s.copy.string());
  }
  using fs::perms;
  fs::permissions(s.copy, perms::owner_read | perms::group_read | perms::others_read);
  if (::geteuid() == 0) {
    // nobody runs the build and reaches the stage, where root binds the rest; no other user
    // reads the copy or the output on the way.
    fs::permissions(scratch, perms::owner_all | perms::group_exec | perms::others_exec);
    fs::permissions(s.copy.parent_path(), perms::owner_all);
    fs::permissions(s.out, perms::owner_all);
  }
  return s;
}

// The build's commands, filled in from the recipe, and the files they name. With clang++ the
// admission reads the compiler's own parse (its AST, -fsyntax-only) beside the compile; with g++
// it reads the preprocessor's list of headers, and the compile writes assembly that the judge
// reads before `assemble` hands it to the assembler.
struct Commands {
  std::vector<std::string> compile, admission, assemble, link;
  fs::path compiled;  // the source the compiler reads: the file's path in the empty root
  fs::path parsed;    // clang++'s AST (JSON), or g++'s preprocessed source
  fs::path assembly;  // g++'s assembly
  fs::path object, depfile, program;
};

Commands commands_of(const Recipe& recipe, const std::string& exercise, const Staging& s,
                     bool namespaces) {
  // In the empty root the copy is at the file's own path; without it, the compiler reads the
  // copy where it is.
  Commands c;
  c.compiled = namespaces ? s.file : s.copy;
  c.parsed = s.out / (kClang ? "train.json" : "train.ii");
  c.assembly = s.out / "train.s";
  c.depfile = s.out / "train.d";
  c.program = s.out / "train.so";
  c.object = s.out / "train.o";
  const std::map<std::string, std::string> values = {{"{header}", recipe.header.at(exercise)},
                                                     {"{source}", c.compiled.string()},
                                                     {"{object}", c.object},
                                                     {"{depfile}", c.depfile},
                                                     {"{program}", c.program}};
  for (const auto& a : recipe.compile) c.compile.push_back(fill(a, values));
  // The copy's quoted includes are looked up beside the file, as the file's own would be.
  if (!namespaces) c.compile.insert(c.compile.begin() + 1, {"-iquote", s.file.parent_path()});
  for (const auto& a : recipe.link) c.link.push_back(fill(a, values));
  if (kClang) {
    // Its AST on stdout (into `parsed`), every header it reads on stderr (-H).
    c.admission =
        compile_made_into(c.compile, {"-fsyntax-only", "-Xclang", "-ast-dump=json", "-H"}, "");
  } else {
    c.admission = compile_made_into(c.compile, {"-E", "-H"}, c.parsed);
    c.compile = compile_to_assembly(c.compile, c.assembly);
    c.assemble = {c.compile.front(), "-c", "-x", "assembler", c.assembly, "-o", c.object};
  }
  return c;
}

// The compiler's messages as the candidate reads them: without the namespaces it read the copy,
// and the messages get the file's name back.
std::string messages(std::string log, const Staging& s) {
  const std::string copy = s.copy.string(), file = s.file.string();
  for (std::size_t at = 0; (at = log.find(copy, at)) != log.npos;) {
    log.replace(at, copy.size(), file);
    at += file.size();
  }
  return log;
}

// The roots the steps run in: the compile and the preprocessing read the kit's public headers,
// the client's entry and the protocol, the precompiled header and the copy at the file's path;
// the link reads its object alone.
struct Roots {
  sandbox::EmptyRoot compiling, admitting, assembling, linking;
};

void prepare_roots(Roots& roots, const Commands& c, const Staging& s, const fs::path& pch) {
  const fs::path kit = fs::path(OVERLAP_SOURCE_DIR) / "harness";
  for (sandbox::EmptyRoot* root : {&roots.compiling, &roots.admitting}) {
    root->read_only(kit / "include").read_only(kit / "client").read_only(kit / "protocol");
    root->read_only(pch).read_only(s.copy, s.file);
  }
  roots.compiling.prepare(c.compile, s.stage);
  roots.admitting.prepare(c.admission, s.stage);
  if (!c.assemble.empty()) roots.assembling.prepare(c.assemble, s.stage);
  roots.linking.prepare(c.link, s.stage);
}

// The compile and the admission's parse, at once, each in its root (or none), to the deadline:
// their exit statuses, -1 for one killed at the deadline.
struct Compiled {
  int compile = 0, admission = 0;
  std::string log, headers;  // their messages: the compiler's, and the headers read (-H)
};

Compiled compile(const Commands& c, const Roots* roots, const std::string& scratch,
                 std::chrono::steady_clock::time_point deadline, double seconds) {
  Compiled out{0, 0, scratch + "/build.log", scratch + "/headers.log"};
  {
    Step compile_step(c.compile, roots ? &roots->compiling : nullptr, out.log, seconds);
    Step admission_step(c.admission, roots ? &roots->admitting : nullptr, out.headers, seconds,
                        kClang ? c.parsed.string() : "");
    out.compile = compile_step.wait(deadline);
    out.admission = admission_step.wait(deadline);
  }
  check_started(out.log);
  check_started(out.headers);
  return out;
}

// Admission, before any message of the compiler's is shown (they could quote what it read):
// every file the compile read, the output's size, and, once both have run, no assembly of the
// submission's own: in clang++'s parse, or in what g++ would hand the assembler. Nothing when the
// submission is admitted.
std::optional<BuildFailure> admit(const std::string& source, const Commands& c,
                                  const Compiled& compiled, const Staging& s, const fs::path& pch) {
  std::vector<std::string> read = reported_headers(read_file(compiled.headers));
  for (std::string& f : dependency_file_entries(read_file(c.depfile))) read.push_back(std::move(f));
  const std::vector<std::string> allowed = readable_folders(pch);
  if (const std::string refused = refused_file(read, c.compiled, allowed); !refused.empty()) {
    return BuildFailure{source + " includes " + refused + ": " + kMayInclude};
  }
  if (over_output_limit(s.out, {compiled.compile, compiled.admission})) return too_big();
  if (compiled.admission != 0) {
    if (compiled.compile != 0) return std::nullopt;  // the compiler's messages say why
    return BuildFailure{"the submission could not be checked (the " +
                        std::string(kClang ? "parse" : "preprocessor") +
                        " failed where the compile did not): " + read_file(compiled.headers)};
  }
  if (kClang) {
    if (const auto found = assembly_outside(read_file(c.parsed), allowed)) {
      return BuildFailure{source + ":" + std::to_string(found->line) + ": " +
                          assembly_named(found->kind) + kNoAssembly};
    }
    // A label a system header makes from a macro of the submission's has the header's place:
    // its name, made of assembly text, shows in the object.
    if (compiled.compile == 0) {
      if (const std::string name = strange_symbol(read_file(c.object)); !name.empty()) {
        return BuildFailure{source + " makes a symbol named `" + protocol::escape_control(name) +
                            "`, which is no name C++ gives" + kNoAssembly};
      }
    }
  } else if (compiled.compile == 0) {
    if (const std::string why = refused_assembly(read_file(c.assembly)); !why.empty()) {
      return BuildFailure{source + " compiles to assembly that g++ does not write for C++ (" + why +
                          ")" + kNoAssembly};
    }
  }
  return std::nullopt;
}

// g++'s assembly, checked, handed to the assembler: in what is left of the build's time.
std::optional<BuildFailure> assemble(const Commands& c, const Roots* roots, const Staging& s,
                                     const std::string& log,
                                     std::chrono::steady_clock::time_point deadline) {
  const double left =
      std::chrono::duration<double>(deadline - std::chrono::steady_clock::now()).count();
  Step step(c.assemble, roots ? &roots->assembling : nullptr, log, std::max(left, 1.0));
  const int status =
      step.wait(std::max(deadline, std::chrono::steady_clock::now() + std::chrono::seconds(1)));
  check_started(log);
  if (over_output_limit(s.out, {status})) return too_big();
  if (status != 0) return BuildFailure{"the assembler failed on g++'s output: " + read_file(log)};
  return std::nullopt;
}

// The link, in what is left of the build's time (a second at least).
std::variant<Built, BuildFailure> link(const Commands& c, const Roots* roots, const Staging& s,
                                       const std::string& log,
                                       std::chrono::steady_clock::time_point deadline) {
  const double left =
      std::chrono::duration<double>(deadline - std::chrono::steady_clock::now()).count();
  Step link_step(c.link, roots ? &roots->linking : nullptr, log, std::max(left, 1.0));
  const int linked = link_step.wait(
      std::max(deadline, std::chrono::steady_clock::now() + std::chrono::seconds(1)));
  check_started(log);
  if (over_output_limit(s.out, {linked})) return too_big();
  if (linked != 0) return BuildFailure{messages(read_file(log), s)};
  return Built{c.program.string()};
}

}  // namespace

std::variant<Built, BuildFailure> build_submission(const std::string& exercise,
                                                   const std::string& source,
                                                   const std::string& text,
                                                   const std::string& scratch, double real_seconds,
                                                   bool namespaces) {
  const Recipe recipe = load_recipe();
  if (!recipe.header.contains(exercise)) {
    throw std::runtime_error("the build recipe has no exercise " + exercise);
  }
  if (recipe.pch.empty()) throw std::runtime_error("the build recipe names no precompiled header");
  const Staging staged = stage_submission(source, text, scratch);
  const Commands commands = commands_of(recipe, exercise, staged, namespaces);
  Roots roots{build_root(staged.out), build_root(staged.out), build_root(staged.out),
              build_root(staged.out)};
  if (namespaces) prepare_roots(roots, commands, staged, recipe.pch);
  const Roots* in_roots = namespaces ? &roots : nullptr;

  const auto deadline = std::chrono::steady_clock::now() +
                        std::chrono::duration_cast<std::chrono::steady_clock::duration>(
                            std::chrono::duration<double>(real_seconds));
  const Compiled compiled = compile(commands, in_roots, scratch, deadline, real_seconds);
  if (compiled.compile == -1 || compiled.admission == -1) {
    return BuildFailure{"the compiler ran past the build's limit of " +
                        std::to_string(static_cast<int>(real_seconds)) + " s"};
  }
  if (auto refused = admit(source, commands, compiled, staged, recipe.pch)) return *refused;
  if (compiled.compile != 0) return BuildFailure{messages(read_file(compiled.log), staged)};
  if (!commands.assemble.empty()) {
    if (auto failed = assemble(commands, in_roots, staged, compiled.log, deadline)) return *failed;
  }
  return link(commands, in_roots, staged, compiled.log, deadline);
}

}  // namespace overlap::judge
