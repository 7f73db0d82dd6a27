# The cluster called from threads of the submission's own, one at a time: refused, named.
set(checks ${rejected} -DKINDS=crash,misuse "-DARGS=--scenario two-stage"
  "-DOUTPUT_MATCHES=Pipeline::input was called from a thread other than the one that runs train")
