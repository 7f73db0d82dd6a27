// The empty root: a filesystem that holds only what a command may read, in user, pid, mount,
// IPC and network namespaces of its own (bubblewrap, Debian's `bubblewrap`), as online
// judges run untrusted code. Each step of a submission's build happens in one, and a grade's
// runs in another (the sandbox's host, host.hpp), so a file the kit does not hand in (a
// solution, a built reference, a home folder, another grade's memory) is not refused: it is
// not there.
//
// As root, the command runs as nobody: a user namespace made by root would map root to itself.
// nobody cannot reach folders under a private home (/root), so the binds are first staged by
// root in a mount namespace of the child's own, and bubblewrap binds the staged copies.
//
// Use: describe the root, prepare() in the judge, then enter() in a forked child, which only
// makes system calls (no allocation) and never returns.
#pragma once

#include <sys/types.h>

#include <cstddef>
#include <string>
#include <vector>

#include "nobody.hpp"

namespace overlap::sandbox {

class EmptyRoot {
 public:
  // `host` (a file or folder) seen read-only at `inside`; at its own path when `inside` is "".
  EmptyRoot& read_only(const std::string& host, const std::string& inside = "");
  // A folder the command writes, at its own path. As root it is given to nobody.
  EmptyRoot& writable(const std::string& folder);
  // The whole of /usr (a compiler), or only its libraries (a program).
  EmptyRoot& system(bool whole_usr);
  EmptyRoot& device(const std::string& path);  // /dev/null, /dev/zero, /dev/urandom
  EmptyRoot& tmp(std::size_t bytes);           // a private /tmp of at most `bytes`
  EmptyRoot& proc();                           // a /proc of its own pid namespace
  EmptyRoot& workdir(const std::string& folder);

  // The command line of bubblewrap for `command`. `stage` is an empty folder of the judge's,
  // which nobody can reach, where root stages the binds (unused for other users).
  void prepare(const std::vector<std::string>& command, const std::string& stage);

  // In a forked child: enters the root and executes the command with `env`. Never returns: on
  // any failure it exits 126 with the reason on stderr.
  [[noreturn]] void enter(char* const env[]) const;

 private:
  struct Bind {
    std::string host, inside, staged;
    bool writable = false, folder = true;
  };
  std::vector<Bind> binds_;
  std::vector<std::string> devices_;
  bool whole_usr_ = false, proc_ = false;
  std::size_t tmp_bytes_ = 0;
  std::string workdir_ = "/", stage_;
  std::vector<std::string> args_;
  std::vector<char*> argv_;
};

// Whether this machine can make the namespaces, tried (not guessed from the user): "" when it
// can, or why not and how to enable them.
std::string namespaces_unavailable();

}  // namespace overlap::sandbox
