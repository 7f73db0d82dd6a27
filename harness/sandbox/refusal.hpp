// The judge's words for a system call the sandbox refused (filter.hpp): what the submission
// tried to do, by the call's name.
#pragma once

#include <string>

namespace overlap::sandbox {

// "sandbox: the submission tried to start a process (clone), which the sandbox refuses: ..."
std::string describe_refusal(int call);

}  // namespace overlap::sandbox
