#include "judge_run.hpp"

#include <fcntl.h>
#include <poll.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <boost/json/parse.hpp>
#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <stdexcept>

#include "../judge/files.hpp"

extern char** environ;

namespace overlap::interview {

namespace {

// What the record keeps of either stream: a report is far smaller; the rest is passed on only.
constexpr std::size_t kKept = 8 << 20;

// A temporary file's name of this process's own, removed when it goes.
class TemporaryFile {
 public:
  TemporaryFile() {
    std::string name = (std::filesystem::temp_directory_path() / "overlap-report.XXXXXX").string();
    const int fd = ::mkstemp(name.data());
    if (fd < 0) throw std::runtime_error("cannot make a temporary file for the judge's report");
    ::close(fd);
    path_ = name;
  }
  ~TemporaryFile() { std::filesystem::remove(path_); }
  TemporaryFile(const TemporaryFile&) = delete;
  TemporaryFile& operator=(const TemporaryFile&) = delete;
  const std::string& path() const { return path_; }

 private:
  std::string path_;
};

struct Pipe {
  int read = -1, write = -1;
  Pipe() {
    int fds[2];
    if (::pipe2(fds, O_CLOEXEC) != 0) throw std::runtime_error("cannot make a pipe to the judge");
    read = fds[0];
    write = fds[1];
  }
};

// Every byte of both streams until the judge closes them: kept (up to kKept) and, with
// `pass_through`, written to this program's own stream of the same number as it comes.
void drain(Pipe& out, Pipe& err, JudgeRun& run, bool pass_through) {
  pollfd fds[2] = {{out.read, POLLIN, 0}, {err.read, POLLIN, 0}};
  std::string* kept[2] = {&run.printed, &run.messages};
  int open = 2;
  while (open > 0) {
    if (::poll(fds, 2, -1) < 0) {
      if (errno == EINTR) continue;
      throw std::runtime_error("cannot read the judge's output");
    }
    for (int i = 0; i < 2; ++i) {
      if (fds[i].fd < 0 || fds[i].revents == 0) continue;
      char buffer[65536];
      const ssize_t n = ::read(fds[i].fd, buffer, sizeof buffer);
      if (n < 0 && errno == EINTR) continue;
      if (n <= 0) {
        ::close(fds[i].fd);
        fds[i].fd = -1;
        --open;
        continue;
      }
      const std::size_t room = kKept - std::min(kKept, kept[i]->size());
      kept[i]->append(buffer, std::min(static_cast<std::size_t>(n), room));
      if (pass_through) {
        std::fwrite(buffer, 1, static_cast<std::size_t>(n), i == 0 ? stdout : stderr);
        std::fflush(i == 0 ? stdout : stderr);
      }
    }
  }
}

}  // namespace

JudgeRun run_program(const std::string& program, std::vector<std::string> args, bool pass_through) {
  std::vector<char*> argv = {const_cast<char*>(program.c_str())};
  for (std::string& a : args) argv.push_back(a.data());
  argv.push_back(nullptr);

  Pipe out, err;
  posix_spawn_file_actions_t actions;
  posix_spawn_file_actions_init(&actions);
  posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0);
  posix_spawn_file_actions_adddup2(&actions, out.write, 1);
  posix_spawn_file_actions_adddup2(&actions, err.write, 2);
  // Nothing else of this program's reaches the judge (the interview's server, its listening
  // socket and its connections among them), whatever was opened without close-on-exec.
  posix_spawn_file_actions_addclosefrom_np(&actions, 3);
  pid_t pid = 0;
  const int failed = ::posix_spawn(&pid, program.c_str(), &actions, nullptr, argv.data(), environ);
  posix_spawn_file_actions_destroy(&actions);
  ::close(out.write);
  ::close(err.write);
  if (failed) {
    ::close(out.read);
    ::close(err.read);
    throw std::runtime_error("cannot start " + program);
  }
  JudgeRun run;
  drain(out, err, run, pass_through);
  int status = 0;
  while (::waitpid(pid, &status, 0) < 0 && errno == EINTR) {
  }
  run.exit = WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
  return run;
}

JudgeRun run_judge(const std::string& judge, std::vector<std::string> args,
                   const std::string& named_report, bool pass_through) {
  std::optional<TemporaryFile> own_report;
  std::string report = named_report;
  if (report.empty()) {
    own_report.emplace();
    report = own_report->path();
    args.insert(args.end(), {"--json", report});
  }
  JudgeRun run = run_program(judge, std::move(args), pass_through);
  // A report of this grade: the judge writes it only when it graded (exit 0 or 1).
  if (run.exit == 0 || run.exit == 1) {
    if (const auto text = judge::file_bytes(report)) {
      boost::system::error_code error;
      const boost::json::value value = boost::json::parse(*text, error);
      if (!error && value.is_object()) run.report = value.as_object();
    }
  }
  return run;
}

}  // namespace overlap::interview
