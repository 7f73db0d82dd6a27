set(exit 0)
set(generated ON)
set(checks -DVERDICT=optimal "-DTIERS=${solution_tiers}" "-DMAKESPANS=${solution_makespans}")
