set(checks ${rejected} -DKINDS=time-limit "-DARGS=--time-limit 1"
  "-DOUTPUT_MATCHES=virtual time stood at [0-9]+ ms:.*stage 0: last ran")
