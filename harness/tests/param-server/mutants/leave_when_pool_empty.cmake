# Correct on every other scenario; fails on the scenario made for its mistake.
set(checks ${rejected} -DKINDS=lost-update "-DARGS=--scenario late-failure"
  "-DOUTPUT_MATCHES=1 mini-batch was never applied: 231")
