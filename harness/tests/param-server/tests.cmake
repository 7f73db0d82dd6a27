# The param-server exercise's own tests beyond its programs' data: a variant of the reference
# (the functions are those of ../CMakeLists.txt).

# Only the two fastest workers: pass on the default (1872 ms against 1470).
overlap_variant(param-server two_fastest FROM "const int workers = cluster.num_workers();"
  TO "const int workers = 2;" CHECKS "-DARGS=--scenario default" -DMAKESPANS=default=1872)

# A rule the planner credits beside the reference's and the styles' (worlds/param-server/
# planner.hpp, kit_rules; the reference's own variant is never_retire, guide.cmake): under a
# staleness bound, a too stale gradient's mini-batch recomputed by the same worker instead of the
# worker retired, in the styles' pushes. Its makespans are within 2 % of the planner's for that
# rule (param_server_schedule_test.cpp: many-staleness 4569.5).
overlap_variant(param-server push_recompute KIT
  SOURCE ${PROJECT_SOURCE_DIR}/harness/tests/param-server/styles/per_device.cpp
  FROM "stale && working == 1 ? again : retire" TO "stale ? again : retire"
  EXIT 1 CHECKS
  -DMAKESPANS=default=1476,jitter=1352.747,worker-failure=2624,tight-staleness=1875,many-workers=1715.5,pull-failure=2050,late-failure=1495,many-staleness=4647)
