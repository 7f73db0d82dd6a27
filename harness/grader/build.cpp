#include "build.hpp"

#include <fcntl.h>
#include <signal.h>
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

namespace overlap::grade {

namespace {

namespace fs = std::filesystem;

struct Recipe {
  std::vector<std::string> compile, link;
  std::map<std::string, std::string> launcher, header;  // by exercise
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

// Runs `args` with its output into `log`, for at most `seconds`; its exit status, or -1 when it
// ran out of time (and was killed).
int run(const std::vector<std::string>& args, const std::string& log, double seconds) {
  const pid_t pid = ::fork();
  if (pid < 0) throw std::runtime_error("fork failed");
  if (pid == 0) {
    ::setpgid(0, 0);
    const int out = ::open(log.c_str(), O_WRONLY | O_CREAT | O_APPEND, 0644);
    if (out >= 0) ::dup2(out, 1), ::dup2(out, 2);
    std::vector<char*> argv;
    for (const auto& a : args) argv.push_back(const_cast<char*>(a.c_str()));
    argv.push_back(nullptr);
    ::execv(argv[0], argv.data());
    ::_exit(127);
  }
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::duration<double>(seconds);
  int status = 0;
  while (::waitpid(pid, &status, WNOHANG) == 0) {
    if (std::chrono::steady_clock::now() > deadline) {
      ::kill(-pid, SIGKILL);
      ::waitpid(pid, &status, 0);
      return -1;
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(5));
  }
  return WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
}

std::string read_file(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::ostringstream text;
  text << in.rdbuf();
  return text.str();
}

// The files a depfile lists ("target: a b \<newline> c"; a space in a name is "\ ").
std::vector<std::string> dependencies(const std::string& depfile) {
  const std::string text = read_file(depfile);
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

bool under(const fs::path& file, const fs::path& folder) {
  const auto rel = file.lexically_relative(folder);
  return !rel.empty() && *rel.begin() != "..";
}

// What a submission's compile may read: the submission, the kit's public headers and the
// program's own main (the client), the precompiled header, and the system's include folders.
std::string refused_dependency(const std::vector<std::string>& files, const fs::path& source) {
  const fs::path kit = fs::path(OVERLAP_SOURCE_DIR "/harness").lexically_normal();
  const fs::path pch = fs::path(OVERLAP_BUILD_RECIPE).parent_path().lexically_normal();
  for (const std::string& f : files) {
    // `..` resolved by the letter: a thousand headers, no system call each. A link out of an
    // allowed folder would have to be planted in the system's or the kit's own folders.
    const fs::path file = fs::absolute(f).lexically_normal();
    if (file == source || under(file, kit / "include") || under(file, kit / "client") ||
        under(file, kit / "protocol") || under(file, pch / "CMakeFiles") ||
        under(file, "/usr/include") || under(file, "/usr/lib/gcc") ||
        file.string().starts_with("/usr/lib/llvm-")) {
      continue;
    }
    return file.string();
  }
  return {};
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
                                                   const std::string& scratch,
                                                   double real_seconds) {
  const Recipe recipe = load_recipe();
  if (!recipe.header.contains(exercise)) {
    throw std::runtime_error("the build recipe has no exercise " + exercise);
  }
  const fs::path file = fs::absolute(source).lexically_normal();
  const std::map<std::string, std::string> values = {{"{header}", recipe.header.at(exercise)},
                                                     {"{source}", file.string()},
                                                     {"{object}", scratch + "/train.o"},
                                                     {"{depfile}", scratch + "/train.d"},
                                                     {"{program}", scratch + "/train.so"}};
  std::vector<std::string> compile, link;
  for (const auto& a : recipe.compile) compile.push_back(fill(a, values));
  for (const auto& a : recipe.link) link.push_back(fill(a, values));

  const std::string log = scratch + "/build.log";
  const auto started = std::chrono::steady_clock::now();
  const int compiled = run(compile, log, real_seconds);
  if (compiled == -1) {
    return BuildFailure{"the compiler ran past the build's limit of " +
                        std::to_string(static_cast<int>(real_seconds)) + " s"};
  }
  if (compiled != 0) return BuildFailure{read_file(log)};
  if (const std::string refused = refused_dependency(dependencies(values.at("{depfile}")), file);
      !refused.empty()) {
    return BuildFailure{source + " includes " + refused +
                        ": a submission may include the kit's public headers (<overlap/...>), "
                        "the C++ standard library and Boost only"};
  }
  const double left =
      real_seconds -
      std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
  const int linked = run(link, log, std::max(left, 1.0));
  if (linked != 0) return BuildFailure{read_file(log)};
  return Built{values.at("{program}")};
}

}  // namespace overlap::grade
