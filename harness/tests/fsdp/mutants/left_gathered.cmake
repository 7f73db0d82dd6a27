set(checks -DVERDICT=fail -DKINDS=unreleased "-DARGS=--scenario default"
  "-DOUTPUT_MATCHES=rank 0: layer 0 is still gathered at the end")
