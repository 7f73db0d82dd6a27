set(checks ${rejected} -DKINDS=deadlock "-DARGS=--scenario worker-failure"
  "-DOUTPUT_MATCHES=failed: worker 0")
