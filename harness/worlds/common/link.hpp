// The judge's end of a running submission program, as a world's run sees it: frames out, frames
// in, and why the program stopped answering. The grader implements it over the program's pipes
// (every wait under the run's real-time deadline); a world never sees a process.
#pragma once

#include <string>
#include <string_view>

namespace overlap::worlds {

class Link {
 public:
  enum class Status { ok, timeout, closed };

  virtual ~Link() = default;
  // Sends whole frames. `closed` when the program is gone.
  virtual Status send(std::string_view frames) = 0;
  // The next frame's body. Throws protocol::ProtocolError on a frame over the caps.
  virtual Status receive(std::string& body) = 0;
  // Why the program ended or was ended, once a send or a receive was not `ok`: the violation's
  // kind ("crash", "time-limit") and message. Reaps the program.
  virtual std::pair<std::string, std::string> ended(Status why) = 0;
};

}  // namespace overlap::worlds
