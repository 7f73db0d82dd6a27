// The user that untrusted code runs as when the kit runs as root: it can read what anyone can,
// and write nothing of anyone's.
#pragma once

#include <grp.h>
#include <sys/types.h>
#include <unistd.h>

namespace overlap::sandbox {

inline constexpr uid_t kNobody = 65534;

// Drops every group and becomes nobody, for good; false when that failed. System calls only
// (it runs in forked children too).
inline bool become_nobody() {
  return ::setgroups(0, nullptr) == 0 && ::setgid(kNobody) == 0 && ::setuid(kNobody) == 0 &&
         ::setuid(0) != 0;
}

}  // namespace overlap::sandbox
