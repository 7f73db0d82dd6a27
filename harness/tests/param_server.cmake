# The param-server exercise's own tests: correct programs in other styles, mutants, a variant of
# the reference (the functions are those of CMakeLists.txt).

overlap_style(param-server callbacks 0 -DVERDICT=optimal
  "-DMAKESPANS=${solution_pins_param-server}")
overlap_style(param-server scheduler 0 -DVERDICT=optimal
  "-DMAKESPANS=${solution_pins_param-server}")
overlap_style(param-server per_device 0 -DVERDICT=optimal
  "-DMAKESPANS=${solution_pins_param-server}")
overlap_style(param-server blocking_actors 0
  -DMAKESPANS=default=1479,jitter=1343.022,worker-failure=2649,tight-staleness=1883,many-workers=2166)
overlap_mutant(param-server static_split -DVERDICT=slow -DCORRECT=ON -DKINDS= "-DARGS=--scenario default"
  -DMAKESPANS=default=4920)
overlap_mutant(param-server unguarded_push ${rejected} -DKINDS=contention
  "-DARGS=--scenario default" "-DOUTPUT_MATCHES=server is busy: apply")
overlap_mutant(param-server lost_on_failure ${rejected} -DKINDS=lost-update
  "-DARGS=--scenario worker-failure" "-DOUTPUT_MATCHES=1 mini-batch was never applied")
overlap_mutant(param-server wait_for_failed_worker ${rejected} -DKINDS=deadlock
  "-DARGS=--scenario worker-failure" "-DOUTPUT_MATCHES=failed: worker 0")
overlap_mutant(param-server ignore_staleness ${rejected} -DKINDS=staleness
  "-DARGS=--scenario tight-staleness" "-DOUTPUT_MATCHES=over the bound of 4")
overlap_mutant(param-server first_to_arrive ${rejected} -DKINDS=exception,misuse
  "-DARGS=--scenario default"
  "-DOUTPUT_MATCHES=apply_average\\(\\) with two gradients from worker 0")
overlap_mutant(param-server poll_for_lost_batch ${rejected} -DKINDS=time-limit
  "-DARGS=--scenario worker-failure"
  "-DOUTPUT_MATCHES=still running past 128760 ms of virtual time")
# Only the two fastest workers: pass on the default (1870 ms against 1476).
overlap_variant(param-server two_fastest FROM "w < cluster.num_workers()" TO "w < 2"
  CHECKS "-DARGS=--scenario default" -DMAKESPANS=default=1870)
