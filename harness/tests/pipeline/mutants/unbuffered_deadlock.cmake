# With two stages this schedule happens not to deadlock; from four on it does.
set(checks ${rejected} -DKINDS=deadlock "-DARGS=--scenario default"
  "-DOUTPUT_MATCHES=stage 3: last ran backward\\(step 0, mb 0\\), ended at 60 ms")
