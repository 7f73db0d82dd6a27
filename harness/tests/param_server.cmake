# The param-server exercise's own tests: correct programs in other styles, mutants, a variant of
# the reference (the functions are those of CMakeLists.txt).

# The styles push one gradient at a time: correct everywhere, short of the best known where
# averages pay (many-workers, the staleness bounds, the failures' tails), and slow on
# many-staleness, where 32 workers pushing in turn age every gradient past the bound.
overlap_style(param-server callbacks 1
  -DMAKESPANS=default=1476,jitter=1352.747,worker-failure=2624,tight-staleness=1870,many-workers=1715.5,pull-failure=2050,late-failure=1515,many-staleness=5877)
overlap_style(param-server scheduler 1
  -DMAKESPANS=default=1476,jitter=1352.747,worker-failure=2624,tight-staleness=1870,many-workers=1715.5,pull-failure=2050,late-failure=1515,many-staleness=5877)
overlap_style(param-server per_device 1
  -DMAKESPANS=default=1476,jitter=1352.747,worker-failure=2624,tight-staleness=1870,many-workers=1715.5,pull-failure=2050,late-failure=1495,many-staleness=5877)
overlap_style(param-server blocking_actors 1
  -DMAKESPANS=default=1479,jitter=1343.022,worker-failure=2649,tight-staleness=1883,many-workers=2166,pull-failure=2053,late-failure=1520,many-staleness=7030)
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
overlap_mutant(param-server first_to_arrive ${rejected} -DKINDS=misuse
  "-DARGS=--scenario default"
  "-DOUTPUT_MATCHES=apply_average\\(\\) with two gradients from worker 0")
overlap_mutant(param-server poll_for_lost_batch ${rejected} -DKINDS=time-limit
  "-DARGS=--scenario worker-failure"
  "-DOUTPUT_MATCHES=still running past 128760 ms of virtual time")
# Correct on every other scenario; each fails on the scenario made for its mistake.
overlap_mutant(param-server check_then_push ${rejected} -DKINDS=staleness
  "-DARGS=--scenario many-staleness"
  "-DOUTPUT_MATCHES=computed on version 0, applied at version 7: staleness 7 over the bound of 6")
overlap_mutant(param-server leave_when_pool_empty ${rejected} -DKINDS=lost-update
  "-DARGS=--scenario late-failure" "-DOUTPUT_MATCHES=1 mini-batch was never applied: 231")
overlap_mutant(param-server drop_on_pull_failure ${rejected} -DKINDS=deadlock
  "-DARGS=--scenario pull-failure"
  "-DOUTPUT_MATCHES=239 of 240 mini-batches applied \\(server at version 239\\); failed: worker 1")
# Only the two fastest workers: pass on the default (1872 ms against 1470).
overlap_variant(param-server two_fastest FROM "const int workers = cluster.num_workers();"
  TO "const int workers = 2;" CHECKS "-DARGS=--scenario default" -DMAKESPANS=default=1872)
