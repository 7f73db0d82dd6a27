set(checks ${rejected} -DKINDS=early-decision,wrong-result,wrong-snapshot
  "-DARGS=--scenario default" "-DOUTPUT_MATCHES=check 2 validated the weights of step")
