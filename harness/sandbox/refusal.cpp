#include "refusal.hpp"

#include <fmt/format.h>
#include <seccomp.h>

#include <cstdlib>
#include <map>
#include <memory>
#include <string_view>

#include "filter.hpp"

namespace overlap::sandbox {

namespace {

// What a call is for, in a candidate's words; the rest are "make the system call X".
std::string_view purpose(std::string_view name) {
  static const std::map<std::string_view, std::string_view> kPurposes = {
      {"clone", "start a process"},
      {"clone3", "start a process"},
      {"fork", "start a process"},
      {"vfork", "start a process"},
      {"execve", "run another program"},
      {"execveat", "run another program"},
      {"kill", "send a signal to another process"},
      {"tkill", "send a signal to another process"},
      {"tgkill", "send a signal to another process"},
      {"open", "open a file for writing"},
      {"openat", "open a file for writing"},
      {"creat", "create a file"},
      {"unlink", "delete a file"},
      {"unlinkat", "delete a file"},
      {"rename", "rename a file"},
      {"renameat", "rename a file"},
      {"renameat2", "rename a file"},
      {"mkdir", "make a folder"},
      {"mkdirat", "make a folder"},
      {"truncate", "change a file"},
      {"chmod", "change a file"},
      {"fchmod", "change a file"},
      {"fchmodat", "change a file"},
      {"socket", "use the network"},
      {"connect", "use the network"},
      {"epoll_create",
       "wait on a real timer or real I/O (real timers do not run in simulated time)"},
      {"epoll_create1",
       "wait on a real timer or real I/O (real timers do not run in simulated time)"},
      {"timerfd_create", "wait on a real timer (real timers do not run in simulated time)"},
      {"ptrace", "trace another process"},
      {"process_vm_readv", "read another process's memory"},
      {"process_vm_writev", "write another process's memory"},
      {"setsid", "leave its process group"},
      {"setpgid", "leave its process group"},
      {"sched_setaffinity", "move to other CPUs"},
      {"rt_sigaction", "replace the sandbox's own signal handler"},
      {"fcntl", "have the kernel signal another process, or watch a file"},
  };
  const auto it = kPurposes.find(name);
  return it == kPurposes.end() ? std::string_view{} : it->second;
}

}  // namespace

std::string describe_refusal(int call) {
  if (call == kTooManyThreads) {
    return fmt::format(
        "sandbox: the submission tried to start more than {} threads at once, which the sandbox "
        "refuses: a few threads (or none) are all a schedule on the simulated cluster needs",
        kMaxThreads);
  }
  const std::unique_ptr<char, decltype(&std::free)> resolved(
      ::seccomp_syscall_resolve_num_arch(SCMP_ARCH_NATIVE, call), &std::free);
  const std::string name = resolved ? resolved.get() : fmt::format("number {}", call);
  const std::string_view what = purpose(name);
  return fmt::format(
      "sandbox: the submission tried to {}, which the sandbox refuses: a submission may compute, "
      "use its own threads and call the cluster, nothing else",
      what.empty() ? "make the system call " + name : fmt::format("{} ({})", what, name));
}

}  // namespace overlap::sandbox
