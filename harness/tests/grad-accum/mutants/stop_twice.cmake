set(checks ${rejected} -DKINDS=misuse "-DARGS=--scenario default"
  "-DOUTPUT_MATCHES=stop\\(\\) called twice")
