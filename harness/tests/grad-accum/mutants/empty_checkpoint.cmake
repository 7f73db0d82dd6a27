set(checks ${rejected} -DKINDS=wrong-result "-DARGS=--scenario default"
  "-DOUTPUT_MATCHES=stop\\(\\) was given an empty Checkpoint")
