set(checks ${rejected} -DKINDS=collective-mismatch,exception
  "-DOUTPUT_MATCHES=rank 1's all_gather number 13 is for layer 0, but rank 0's is for layer 11")
