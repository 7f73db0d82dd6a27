set(exit 0)
set(generated ON)
set(checks -DMAKESPANS=default=400,comm-bound=780,compute-bound=760,straggler-rank=580,eight-ranks=461.667)
