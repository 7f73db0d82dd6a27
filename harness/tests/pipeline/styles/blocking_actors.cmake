set(exit 1)
set(generated ON)
set(checks -DVERDICT=slow "-DMAKESPANS=${starter_makespans}")
