set(checks ${rejected} -DKINDS=misuse "-DARGS=--scenario default"
  "-DOUTPUT_MATCHES=apply_average\\(\\) with two gradients from worker 0")
