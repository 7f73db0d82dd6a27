set(checks ${rejected} -DKINDS=misuse
  "-DOUTPUT_MATCHES=rank 0: all_gather\\(layer 10\\) without copy_in\\(layer 10\\) done first")
