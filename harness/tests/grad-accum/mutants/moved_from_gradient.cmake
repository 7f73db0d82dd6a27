# A moved-from gradient passed in: the call refused as a misuse naming the call and the object.
set(checks ${rejected} -DKINDS=misuse "-DARGS=--scenario default"
  "-DOUTPUT_MATCHES=apply\\(\\) of an empty Gradient")
