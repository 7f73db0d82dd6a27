set(checks ${rejected} -DKINDS=early-decision,stale-gradient,wrong-result
  "-DARGS=--scenario default")
