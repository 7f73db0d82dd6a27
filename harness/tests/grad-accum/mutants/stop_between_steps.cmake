set(checks ${rejected} -DKINDS=late-decision "-DARGS=--scenario default"
  "-DOUTPUT_MATCHES=stop\\(\\) came at 1440 ms; check 9 \\(the one that decides\\) and every check before it were in at 1430 ms")
