# Correct on every other scenario; fails on the scenario made for its mistake.
set(checks ${rejected} -DKINDS=deadlock "-DARGS=--scenario pull-failure"
  "-DOUTPUT_MATCHES=239 of 240 mini-batches applied \\(server at version 239\\); failed: worker 1")
