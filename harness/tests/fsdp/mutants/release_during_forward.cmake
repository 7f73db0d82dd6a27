set(checks ${rejected} -DKINDS=use-after-release
  "-DOUTPUT_MATCHES=rank 0: release\\(layer 0\\) while an operation still uses its parameters")
