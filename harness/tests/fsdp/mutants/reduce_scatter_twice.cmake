set(checks ${rejected} -DKINDS=misuse "-DARGS=--scenario default"
  "-DOUTPUT_MATCHES=rank 0: reduce_scatter\\(layer 0\\) a second time")
