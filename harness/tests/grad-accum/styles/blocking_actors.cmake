set(exit 1)
set(generated ON)
set(checks -DVERDICT=slow
  -DMAKESPANS=default=6390,straggler=6390,no-early-stop=8520,slow-validator=16740,uneven-validators=5940,other-data=6900)
