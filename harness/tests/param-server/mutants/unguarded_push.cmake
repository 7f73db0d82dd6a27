set(checks ${rejected} -DKINDS=contention "-DARGS=--scenario default"
  "-DOUTPUT_MATCHES=server is busy: apply")
