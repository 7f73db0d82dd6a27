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
#include <sstream>
#include <stdexcept>
#include <thread>
#include <vector>

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

// One step of the build (compile, preprocess, link) running in the build's empty root, or as
// the judge's user without it, its output into `log`.
class Step {
 public:
  Step(const std::vector<std::string>& args, const sandbox::EmptyRoot* root, const std::string& log,
       double seconds) {
    const int out = ::open(log.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
    if (out < 0) throw std::runtime_error("cannot write " + log);
    std::vector<char*> argv;
    for (const auto& a : args) argv.push_back(const_cast<char*>(a.c_str()));
    argv.push_back(nullptr);
    const rlim_t cpu = static_cast<rlim_t>(seconds) + 1;
    pid_ = ::fork();
    if (pid_ < 0) throw std::runtime_error("fork failed");
    if (pid_ == 0) {
      ::setpgid(0, 0);
      const int in = ::open("/dev/null", O_RDONLY);
      if (in < 0 || ::dup2(in, 0) < 0 || ::dup2(out, 1) < 0 || ::dup2(out, 2) < 0) ::_exit(126);
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

// The compile's command, made to preprocess into `preprocessed` and name every header it reads
// on stderr (-H): what the admission checks read, even when the compile fails.
std::vector<std::string> preprocess_of(const std::vector<std::string>& compile,
                                       const std::string& preprocessed) {
  std::vector<std::string> args;
  for (std::size_t i = 0; i < compile.size(); ++i) {
    if (compile[i] == "-MD") continue;
    if (compile[i] == "-MF") {
      ++i;
    } else if (compile[i] == "-o") {
      args.insert(args.end(), {"-o", preprocessed});
      ++i;
    } else if (compile[i] == "-c") {
      args.insert(args.end(), {"-E", "-H"});
    } else {
      args.push_back(compile[i]);
    }
  }
  return args;
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

BuildFailure too_big() {
  return {"the build's output is over its limit of " + std::to_string(kMaxOutput >> 20) +
          " MiB (an object or program that large is a build error)"};
}

}  // namespace

std::string launcher_of(const std::string& exercise) {
  const Recipe recipe = load_recipe();
  if (!recipe.launcher.contains(exercise)) {
    throw std::runtime_error("the build recipe has no launcher for " + exercise);
  }
  return recipe.launcher.at(exercise);
}

std::variant<Built, BuildFailure> build_submission(const std::string& exercise,
                                                   const std::string& source,
                                                   const std::string& text,
                                                   const std::string& scratch, double real_seconds,
                                                   bool namespaces) {
  const Recipe recipe = load_recipe();
  if (!recipe.header.contains(exercise)) {
    throw std::runtime_error("the build recipe has no exercise " + exercise);
  }
  // The compiler's messages name the file where the candidate has it.
  const fs::path file = fs::canonical(source);
  const fs::path out = fs::path(scratch) / "out", stage = fs::path(scratch) / "stage",
                 copy = fs::path(scratch) / "source" / file.filename();
  fs::create_directories(copy.parent_path());
  fs::create_directory(out);
  fs::create_directory(stage);
  // The file as the grade read it, even if it is saved again while this builds.
  if (!(std::ofstream(copy, std::ios::binary) << text)) {
    throw std::runtime_error("cannot copy the submission to " + copy.string());
  }
  using fs::perms;
  fs::permissions(copy, perms::owner_read | perms::group_read | perms::others_read);
  if (::geteuid() == 0) {
    // nobody runs the build and reaches the stage, where root binds the rest; no other user
    // reads the copy or the output on the way.
    fs::permissions(scratch, perms::owner_all | perms::group_exec | perms::others_exec);
    fs::permissions(copy.parent_path(), perms::owner_all);
    fs::permissions(out, perms::owner_all);
  }

  // In the empty root the copy is at the file's own path; without it, the compiler reads the
  // copy where it is, and its messages are given back the file's name.
  const fs::path compiled = namespaces ? file : copy;
  const auto messages = [&](std::string log) {
    for (std::size_t at = 0; !namespaces && (at = log.find(copy.string(), at)) != log.npos;) {
      log.replace(at, copy.string().size(), file.string());
      at += file.string().size();
    }
    return log;
  };
  const std::map<std::string, std::string> values = {{"{header}", recipe.header.at(exercise)},
                                                     {"{source}", compiled.string()},
                                                     {"{object}", out / "train.o"},
                                                     {"{depfile}", out / "train.d"},
                                                     {"{program}", out / "train.so"}};
  std::vector<std::string> compile, link;
  for (const auto& a : recipe.compile) compile.push_back(fill(a, values));
  // The copy's quoted includes are looked up beside the file, as the file's own would be.
  if (!namespaces) compile.insert(compile.begin() + 1, {"-iquote", file.parent_path()});
  for (const auto& a : recipe.link) link.push_back(fill(a, values));
  const fs::path preprocessed = out / "train.ii";
  const std::vector<std::string> preprocess = preprocess_of(compile, preprocessed);
  if (recipe.pch.empty()) throw std::runtime_error("the build recipe names no precompiled header");
  const fs::path pch = recipe.pch;
  const fs::path kit = fs::path(OVERLAP_SOURCE_DIR) / "harness";

  sandbox::EmptyRoot compiling = build_root(out), preprocessing = build_root(out),
                     linking = build_root(out);
  if (namespaces) {
    for (sandbox::EmptyRoot* root : {&compiling, &preprocessing}) {
      root->read_only(kit / "include").read_only(kit / "client").read_only(kit / "protocol");
      root->read_only(pch).read_only(copy, file);
    }
    compiling.prepare(compile, stage);
    preprocessing.prepare(preprocess, stage);
    linking.prepare(link, stage);
  }
  const auto in_root = [namespaces](const sandbox::EmptyRoot& root) {
    return namespaces ? &root : nullptr;
  };

  const auto deadline = std::chrono::steady_clock::now() +
                        std::chrono::duration_cast<std::chrono::steady_clock::duration>(
                            std::chrono::duration<double>(real_seconds));
  const std::string log = scratch + "/build.log", headers = scratch + "/headers.log";
  int compile_status = 0, preprocessed_status = 0;
  {
    Step compile_step(compile, in_root(compiling), log, real_seconds);
    Step preprocess_step(preprocess, in_root(preprocessing), headers, real_seconds);
    compile_status = compile_step.wait(deadline);
    preprocessed_status = preprocess_step.wait(deadline);
  }
  check_started(log);
  check_started(headers);
  if (compile_status == -1 || preprocessed_status == -1) {
    return BuildFailure{"the compiler ran past the build's limit of " +
                        std::to_string(static_cast<int>(real_seconds)) + " s"};
  }
  // Before any message of the compiler's is shown: they could quote what it read.
  std::vector<std::string> read = reported_headers(read_file(headers));
  for (std::string& f : dependency_file_entries(read_file(values.at("{depfile}")))) {
    read.push_back(std::move(f));
  }
  if (const std::string refused = refused_file(read, compiled, readable_folders(pch));
      !refused.empty()) {
    return BuildFailure{source + " includes " + refused +
                        ": a submission may include the kit's public headers (<overlap/...>), "
                        "the C++ standard library and Boost only"};
  }
  if (over_output_limit(out, {compile_status, preprocessed_status})) return too_big();
  if (preprocessed_status == 0) {
    if (const std::string directive = assembler_file_directive(read_file(preprocessed));
        !directive.empty()) {
      const bool reads = directive == ".incbin" || directive == ".include";
      return BuildFailure{source + (reads ? " embeds a file with " : " uses the assembler's ") +
                          directive + (reads ? "" : ", which can build an embedded file") +
                          ": a submission may include the kit's public headers (<overlap/...>), "
                          "the C++ standard library and Boost only"};
    }
  } else if (compile_status == 0) {
    return BuildFailure{
        "the preprocessed submission could not be checked (the preprocessor "
        "failed where the compile did not): " +
        read_file(headers)};
  }
  if (compile_status != 0) return BuildFailure{messages(read_file(log))};
  const double left =
      std::chrono::duration<double>(deadline - std::chrono::steady_clock::now()).count();
  Step link_step(link, in_root(linking), log, std::max(left, 1.0));
  const int linked = link_step.wait(
      std::max(deadline, std::chrono::steady_clock::now() + std::chrono::seconds(1)));
  check_started(log);
  if (over_output_limit(out, {linked})) return too_big();
  if (linked != 0) return BuildFailure{messages(read_file(log))};
  return Built{values.at("{program}")};
}

}  // namespace overlap::judge
