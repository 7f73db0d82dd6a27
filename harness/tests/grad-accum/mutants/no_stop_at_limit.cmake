set(checks ${rejected} -DKINDS=missing-stop "-DARGS=--scenario no-early-stop"
  "-DOUTPUT_MATCHES=train returned without calling stop\\(\\)")
