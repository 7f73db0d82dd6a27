set(exit 1)
set(generated ON)
set(checks -DVERDICT=slow
  -DMAKESPANS=default=1040,comm-bound=1600,compute-bound=1400,straggler-rank=1220,eight-ranks=1116.67)
