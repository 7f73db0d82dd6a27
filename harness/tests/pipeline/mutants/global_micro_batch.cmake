# Micro-batches numbered across steps: out of range, a misuse.
set(checks ${rejected} -DKINDS=misuse
  "-DOUTPUT_MATCHES=stage 0: forward\\(micro_batch 8\\) is out of range \\[0, 8\\)")
