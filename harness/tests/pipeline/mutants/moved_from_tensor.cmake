# A moved-from tensor passed on: empty, a misuse (it used to keep its shape and pass).
set(checks ${rejected} -DKINDS=misuse "-DARGS=--scenario default"
  "-DOUTPUT_MATCHES=stage 0: forward\\(micro_batch 0\\) of an empty tensor")
