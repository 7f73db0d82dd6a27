set(checks ${rejected} -DKINDS=staleness "-DARGS=--scenario tight-staleness"
  "-DOUTPUT_MATCHES=over the bound of 4")
