set(checks ${rejected} -DKINDS=early-decision,running-after-stop "-DARGS=--scenario no-early-stop"
  "-DOUTPUT_MATCHES=stop\\(\\) came at 1440 ms; check 12 \\(the one that decides\\) and every check before it were in at 1790 ms")
