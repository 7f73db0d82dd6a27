set(exit 0)
set(generated ON)
set(checks -DVERDICT=optimal "-DMAKESPANS=${solution_makespans}")
