set(checks ${rejected} -DKINDS=out-of-memory "-DARGS=--scenario default"
  "-DOUTPUT_MATCHES=snapshot slots holds 4 snapshots")
