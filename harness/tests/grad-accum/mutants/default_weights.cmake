# Empty weights passed in: the call refused as a misuse naming the call and the object.
set(checks ${rejected} -DKINDS=misuse "-DARGS=--scenario default"
  "-DOUTPUT_MATCHES=worker 0: compute\\(\\) of empty weights")
