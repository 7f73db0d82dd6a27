set(checks ${rejected} -DKINDS=out-of-memory
  "-DOUTPUT_MATCHES=rank 0: all_gather\\(layer 2\\): rank 0 parameters holds 3 layers")
