set(exit 0)
set(checks -DVERDICT=optimal "-DMAKESPANS=${solution_makespans}")
