#include "scratch.hpp"

#include <dirent.h>
#include <fcntl.h>
#include <signal.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <filesystem>
#include <iterator>
#include <system_error>

namespace overlap::judge {

namespace {

constexpr char kPrefix[] = "overlap-judge-";
constexpr int kSignals[] = {SIGINT, SIGTERM, SIGHUP, SIGQUIT};

// Removes `name` in the folder `parent`, and everything in it, with async-signal-safe calls only:
// a signal handler uses it. Symbolic links are removed, never followed.
void remove_tree(int parent, const char* name) {
  const int folder = ::openat(parent, name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
  if (folder < 0) {
    ::unlinkat(parent, name, 0);  // a file or a link (or nothing)
    return;
  }
  alignas(dirent64) char entries[4096];
  for (ssize_t n; (n = ::getdents64(folder, entries, sizeof entries)) > 0;) {
    for (ssize_t at = 0; at < n;) {
      const auto* entry = reinterpret_cast<const dirent64*>(entries + at);
      at += entry->d_reclen;
      if (std::strcmp(entry->d_name, ".") != 0 && std::strcmp(entry->d_name, "..") != 0) {
        remove_tree(folder, entry->d_name);
      }
    }
  }
  ::close(folder);
  ::unlinkat(parent, name, AT_REMOVEDIR);
}

// This judge's folder, for the signal handler: $TMPDIR open, and the folder's name in it.
int scratch_parent = -1;
char scratch_name[64] = {};
struct sigaction previous[std::size(kSignals)];

void remove_and_die(int signal) {
  if (scratch_parent >= 0) remove_tree(scratch_parent, scratch_name);
  // The default action (SA_RESETHAND restored it): the judge ends as the signal says.
  ::raise(signal);
}

// A folder of ours that no judge holds locked: its judge is gone.
bool abandoned(int parent, const char* name) {
  const int folder = ::openat(parent, name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
  if (folder < 0) return false;
  struct stat st {};
  const bool gone = ::fstat(folder, &st) == 0 && st.st_uid == ::geteuid() &&
                    ::flock(folder, LOCK_EX | LOCK_NB) == 0;
  ::close(folder);
  return gone;
}

void remove_abandoned(int parent) {
  const int listing = ::dup(parent);
  DIR* folders = listing < 0 ? nullptr : ::fdopendir(listing);
  if (!folders) return;
  while (const dirent* entry = ::readdir(folders)) {
    if (std::strncmp(entry->d_name, kPrefix, sizeof kPrefix - 1) == 0 &&
        abandoned(parent, entry->d_name)) {
      remove_tree(parent, entry->d_name);
    }
  }
  ::closedir(folders);
}

}  // namespace

Scratch::Scratch() {
  const std::filesystem::path temp = std::filesystem::temp_directory_path();
  scratch_parent = ::open(temp.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
  if (scratch_parent < 0) throw std::system_error(errno, std::generic_category(), temp.string());
  remove_abandoned(scratch_parent);
  for (;;) {
    std::string pattern = (temp / (std::string(kPrefix) + "XXXXXX")).string();
    if (::mkdtemp(pattern.data()) == nullptr) {
      throw std::system_error(errno, std::generic_category(), "mkdtemp");
    }
    lock_ = ::open(pattern.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    struct stat st {};
    // Another judge may have taken it for abandoned before it was locked: then it is gone.
    if (lock_ >= 0 && ::flock(lock_, LOCK_EX) == 0 && ::fstat(lock_, &st) == 0 && st.st_nlink > 0) {
      path_ = pattern;
      break;
    }
    if (lock_ >= 0) ::close(lock_);
  }
  const std::string name = std::filesystem::path(path_).filename().string();
  std::memcpy(scratch_name, name.c_str(), std::min(name.size() + 1, sizeof scratch_name));
  struct sigaction action {};
  action.sa_handler = remove_and_die;
  sigemptyset(&action.sa_mask);
  action.sa_flags = SA_RESETHAND;
  for (std::size_t i = 0; i < std::size(kSignals); ++i) {
    ::sigaction(kSignals[i], &action, &previous[i]);
  }
}

Scratch::~Scratch() {
  for (std::size_t i = 0; i < std::size(kSignals); ++i) {
    ::sigaction(kSignals[i], &previous[i], nullptr);
  }
  remove_tree(scratch_parent, scratch_name);
  ::close(lock_);
  ::close(scratch_parent);
  scratch_parent = -1;
}

}  // namespace overlap::judge
