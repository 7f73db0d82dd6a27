#include "empty_root.hpp"

#include <fcntl.h>
#include <sched.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <filesystem>
#include <stdexcept>
#include <system_error>

namespace overlap::sandbox {

namespace {

constexpr const char* kBubblewrap = "/usr/bin/bwrap";

// In the child, where nothing may allocate: the reason on stderr, then exit 126.
[[noreturn]] void die(const char* what) {
  const char* why = std::strerror(errno);
  for (const char* part : {"overlap sandbox: ", what, ": ", why, "\n"}) {
    [[maybe_unused]] const auto n = ::write(2, part, std::strlen(part));
  }
  ::_exit(126);
}

}  // namespace

EmptyRoot& EmptyRoot::read_only(const std::string& host, const std::string& inside) {
  binds_.push_back(
      {host, inside.empty() ? host : inside, "", false, std::filesystem::is_directory(host)});
  return *this;
}

EmptyRoot& EmptyRoot::writable(const std::string& folder) {
  binds_.push_back({folder, folder, "", true, true});
  return *this;
}

EmptyRoot& EmptyRoot::system(bool whole_usr) {
  whole_usr_ = whole_usr;
  return *this;
}

EmptyRoot& EmptyRoot::device(const std::string& path) {
  devices_.push_back(path);
  return *this;
}

EmptyRoot& EmptyRoot::tmp(std::size_t bytes) {
  tmp_bytes_ = bytes;
  return *this;
}

EmptyRoot& EmptyRoot::proc() {
  proc_ = true;
  return *this;
}

EmptyRoot& EmptyRoot::workdir(const std::string& folder) {
  workdir_ = folder;
  return *this;
}

void EmptyRoot::prepare(const std::vector<std::string>& command, const std::string& stage) {
  const bool root = ::geteuid() == 0;
  stage_ = root ? stage : "";
  args_ = {kBubblewrap,     "--unshare-user", "--unshare-pid",
           "--unshare-ipc", "--unshare-net",  "--die-with-parent"};
  const auto add = [this](std::initializer_list<std::string> more) {
    args_.insert(args_.end(), more);
  };
  const bool lib64 = std::filesystem::exists("/usr/lib64");
  if (whole_usr_) {
    add({"--ro-bind", "/usr", "/usr", "--symlink", "usr/bin", "/bin"});
  } else {
    add({"--ro-bind", "/usr/lib", "/usr/lib"});
    if (lib64) add({"--ro-bind", "/usr/lib64", "/usr/lib64"});
  }
  add({"--symlink", "usr/lib", "/lib"});
  if (lib64) add({"--symlink", "usr/lib64", "/lib64"});
  if (proc_) add({"--proc", "/proc"});
  for (const std::string& d : devices_) add({"--dev-bind", d, d});
  if (tmp_bytes_ > 0) add({"--size", std::to_string(tmp_bytes_), "--tmpfs", "/tmp"});
  for (std::size_t i = 0; i < binds_.size(); ++i) {
    Bind& b = binds_[i];
    if (root) {
      b.staged = stage + "/" + std::to_string(i);
      if (b.writable && ::chown(b.host.c_str(), kNobody, kNobody) != 0) {
        throw std::system_error(errno, std::generic_category(), "chown " + b.host);
      }
    }
    add({b.writable ? "--bind" : "--ro-bind", root ? b.staged : b.host, b.inside});
  }
  add({"--chdir", workdir_, "--"});
  args_.insert(args_.end(), command.begin(), command.end());
  argv_.clear();
  for (std::string& a : args_) argv_.push_back(a.data());
  argv_.push_back(nullptr);
}

void EmptyRoot::enter(char* const env[]) const {
  if (::geteuid() == 0) {
    if (!binds_.empty()) {
      // The binds, staged where nobody can reach them, in a mount namespace of this child only.
      if (::unshare(CLONE_NEWNS) != 0) die("a mount namespace for the binds");
      if (::mount(nullptr, "/", nullptr, MS_REC | MS_PRIVATE, nullptr) != 0) die("private mounts");
      if (::mount("overlap", stage_.c_str(), "tmpfs", MS_NOSUID | MS_NODEV, "mode=0755") != 0) {
        die("the stage");
      }
      for (const Bind& b : binds_) {
        if (b.folder) {
          if (::mkdir(b.staged.c_str(), 0755) != 0) die("a staged folder");
        } else if (const int fd = ::open(b.staged.c_str(), O_CREAT | O_WRONLY | O_CLOEXEC, 0644);
                   fd < 0 || ::close(fd) != 0) {
          die("a staged file");
        }
        if (::mount(b.host.c_str(), b.staged.c_str(), nullptr, MS_BIND | MS_REC, nullptr) != 0) {
          die(b.host.c_str());
        }
      }
    }
    if (!become_nobody()) die("becoming nobody");
  }
  ::execve(kBubblewrap, argv_.data(), env);
  die("cannot run /usr/bin/bwrap (Debian's package bubblewrap)");
}

std::string namespaces_unavailable() {
  EmptyRoot probe;
  probe.system(true).prepare({"/usr/bin/true"}, "");
  int out[2];
  if (::pipe2(out, O_CLOEXEC) != 0) throw std::system_error(errno, std::generic_category(), "pipe");
  const pid_t pid = ::fork();
  if (pid < 0) throw std::system_error(errno, std::generic_category(), "fork");
  if (pid == 0) {
    ::dup2(out[1], 2);
    char* env[] = {const_cast<char*>("PATH=/usr/bin:/bin"), nullptr};
    probe.enter(env);
  }
  ::close(out[1]);
  std::string said;
  char buffer[512];
  for (ssize_t n; (n = ::read(out[0], buffer, sizeof buffer)) != 0;) {
    if (n > 0)
      said.append(buffer, static_cast<std::size_t>(n));
    else if (errno != EINTR)
      break;
  }
  ::close(out[0]);
  int status = 0;
  while (::waitpid(pid, &status, 0) < 0 && errno == EINTR) {
  }
  if (WIFEXITED(status) && WEXITSTATUS(status) == 0) return "";
  while (!said.empty() && said.back() == '\n') said.pop_back();
  if (said.empty()) said = "bubblewrap failed with status " + std::to_string(status);
  return said +
         ". The judge builds and runs each submission in namespaces of its own, with "
         "bubblewrap: install it (apt-get install bubblewrap) and allow unprivileged user "
         "namespaces (sysctl kernel.unprivileged_userns_clone=1 and user.max_user_namespaces > 0; "
         "on Ubuntu 24.04 and later also kernel.apparmor_restrict_unprivileged_userns=0; a "
         "container must allow them too), or grade with --no-sandbox: the system-call filter and "
         "the limits stay, and the report says the namespaces were off";
}

}  // namespace overlap::sandbox
