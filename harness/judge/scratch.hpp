// The judge's scratch folder, where it builds a submission: its own under $TMPDIR, removed with
// everything in it when the judge ends, by return, exception or a signal it can catch (SIGINT,
// SIGTERM, SIGHUP, SIGQUIT); a folder left by a judge that could not clean up (killed with
// SIGKILL, a power cut) is removed by the next judge that starts.
#pragma once

#include <string>

namespace overlap::judge {

class Scratch {
 public:
  // Removes the folders of judges that no longer run, then makes this one's.
  Scratch();
  ~Scratch();
  Scratch(const Scratch&) = delete;
  Scratch& operator=(const Scratch&) = delete;

  const std::string& path() const { return path_; }

 private:
  std::string path_;
  int lock_ = -1;  // held while this judge runs: how the next one tells a live folder
};

}  // namespace overlap::judge
