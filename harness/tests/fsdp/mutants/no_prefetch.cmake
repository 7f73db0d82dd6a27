set(checks -DVERDICT=slow -DCORRECT=ON -DKINDS=
  -DMAKESPANS=default=840,comm-bound=1310,compute-bound=1200,straggler-rank=1020,eight-ranks=881.674)
