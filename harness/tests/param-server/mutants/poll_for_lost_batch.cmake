set(checks ${rejected} -DKINDS=time-limit "-DARGS=--scenario worker-failure"
  "-DOUTPUT_MATCHES=still running past 128760 ms of virtual time")
