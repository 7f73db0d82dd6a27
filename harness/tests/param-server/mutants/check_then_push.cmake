# Correct on every other scenario; fails on the scenario made for its mistake.
set(checks ${rejected} -DKINDS=staleness "-DARGS=--scenario many-staleness"
  "-DOUTPUT_MATCHES=computed on version 0, applied at version 7: staleness 7 over the bound of 6")
