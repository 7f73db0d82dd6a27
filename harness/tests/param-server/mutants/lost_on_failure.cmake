set(checks ${rejected} -DKINDS=lost-update "-DARGS=--scenario worker-failure"
  "-DOUTPUT_MATCHES=1 mini-batch was never applied")
