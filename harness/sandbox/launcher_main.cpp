// The submission program's main: the kit's client (built in) and the submission's code (a shared
// object, loaded last). Before loading it, the launcher confines the process (limits, no
// privileges, the system-call filter) and connects to the judge. So not even a static
// constructor of the submission runs unconfined, or finds the connection half made.
//   overlap-launcher-<exercise> host            the sandbox's host for a grade (host.hpp): each
//                                               program it starts goes on below, graded, its
//                                               threads counted by the host
//   overlap-launcher-<exercise> SUBMISSION.so   one program, under a debugger (no limits, no
//                                               count of its threads)
#include <dlfcn.h>
#include <fcntl.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <stdexcept>
#include <string>

#include "../client/connection.hpp"
#include "filter.hpp"
#include "host.hpp"
#include "nobody.hpp"

#ifdef OVERLAP_SANITIZED
// The sanitizer mode (preset asan), for the kit's own programs: AddressSanitizer reserves
// terabytes of shadow address space, so there is no address-space limit. LeakSanitizer and the
// symbolizer each start a process, which the filter refuses: no leak check, and a report's
// frames are module offsets (gdb or llvm-symbolizer turns them into lines).
constexpr bool kLimitAddressSpace = false;
// Both exit with sandbox::kSanitizerExit, which the judge names.
static_assert(overlap::sandbox::kSanitizerExit == 125, "the options below say 125");
extern "C" const char* __asan_default_options() {
  return "detect_leaks=0:symbolize=0:exitcode=125";
}
extern "C" const char* __ubsan_default_options() { return "exitcode=125"; }
#else
constexpr bool kLimitAddressSpace = true;
#endif

namespace {

constexpr rlim_t kAddressSpace = rlim_t{2} << 30;  // bytes
constexpr rlim_t kOpenFiles = 64;
constexpr int kObjectFd = 8;  // where the host puts the submission's object (host.hpp)
// Processes of this user in the sandbox's user namespace: the threads, the host and the
// namespace's first process, with a margin. The kernel's bound behind the host's, which refuses
// a thread past kMaxThreads first (thread_watch.hpp).
constexpr rlim_t kProcesses = overlap::sandbox::kMaxThreads + 16;

[[noreturn]] void fail(const std::string& why) {
  std::fprintf(stderr, "overlap launcher: %s\n", why.c_str());
  std::_Exit(127);  // "the submission program could not be started": the kit's failure
}

void limit(int resource, rlim_t value, const char* name) {
  const rlimit r{value, value};
  if (::setrlimit(resource, &r) != 0) fail(std::string("setrlimit ") + name);
}

// As root, the submission runs as nobody: it can read what anyone can, and write nothing.
void drop_privileges() {
  if (::geteuid() != 0) return;
  if (!overlap::sandbox::become_nobody()) fail("cannot drop root privileges");
  // A change of user makes /proc/self root's; the launcher and the client still read it.
  ::prctl(PR_SET_DUMPABLE, 1);
}

// Whether this process is in a user namespace of its own (the judge's sandbox): the kernel
// counts RLIMIT_NPROC there for this namespace's processes only, not for every process of the
// user on the machine.
bool in_user_namespace() {
  const int fd = ::open("/proc/self/uid_map", O_RDONLY | O_CLOEXEC);
  if (fd < 0) return false;
  char map[64] = {};
  const ssize_t n = ::read(fd, map, sizeof map - 1);
  ::close(fd);
  unsigned long inside = 0, outside = 0, count = 0;
  return n > 0 && std::sscanf(map, "%lu %lu %lu", &inside, &outside, &count) == 3 &&
         count != 4294967295UL;
}

// Confines this process, connects to the judge and runs the submission's object in `module`.
[[noreturn]] void run_program(int module, bool graded, long cpu_seconds) {
  if (graded) {
    if (in_user_namespace()) limit(RLIMIT_NPROC, kProcesses, "RLIMIT_NPROC");
    if (kLimitAddressSpace) limit(RLIMIT_AS, kAddressSpace, "RLIMIT_AS");
    limit(RLIMIT_CPU, static_cast<rlim_t>(cpu_seconds), "RLIMIT_CPU");
    limit(RLIMIT_NOFILE, kOpenFiles, "RLIMIT_NOFILE");
    limit(RLIMIT_FSIZE, 0, "RLIMIT_FSIZE");
    limit(RLIMIT_CORE, 0, "RLIMIT_CORE");
  }
  drop_privileges();
  try {
    overlap::sandbox::install_filter();
    // The connection to the judge, before any code of the submission's: the shared memory's
    // descriptor is closed once mapped, so no static constructor can write to it or resize it.
    overlap::client::Connection::get();
  } catch (const std::exception& e) {
    fail(e.what());
  }
  // The host learns here, and from nothing the submission could say, that the program started:
  // any end from now on is the submission's own.
  if (graded) {
    const char loading = 'L';
    [[maybe_unused]] const auto said = ::write(overlap::sandbox::kLoadedFd, &loading, 1);
    ::close(overlap::sandbox::kLoadedFd);
  }
  // From here on, the submission's code: its static constructors run inside dlopen.
  // Named by this process's id, not "self": a debugger reads the library by the name the loader
  // reports, and in the debugger's own process /proc/self/fd/N is another file (a pipe of its
  // own, where it would wait for ever).
  const std::string path = "/proc/" + std::to_string(::getpid()) + "/fd/" + std::to_string(module);
  void* submission = ::dlopen(path.c_str(), RTLD_NOW | RTLD_LOCAL);
  if (!submission) fail(std::string("cannot load the submission: ") + ::dlerror());
  auto start = reinterpret_cast<void (*)()>(::dlsym(submission, "overlap_submission_start"));
  if (!start) fail("the submission has no entry point");
  start();  // does not return: the client exits when the judge ends the run
  std::_Exit(0);
}

}  // namespace

int main(int argc, char** argv) {
  if (argc == 2 && std::string(argv[1]) == "host") {
    const int cpu_seconds = overlap::sandbox::serve_as_host();
    run_program(kObjectFd, true, cpu_seconds);
  }
  if (argc != 2) fail("usage: host | SUBMISSION.so");
  // Opened while it may still be unreadable to nobody (a scratch folder of root's own).
  const int module = ::open(argv[1], O_RDONLY | O_CLOEXEC);
  if (module < 0) fail(std::string("cannot open ") + argv[1]);
  run_program(module, false, 0);
}
