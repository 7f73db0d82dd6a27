# The fastest workers, one average per speed group: correct everywhere, short of the best known
# wherever it leaves fast workers waiting for their group or slow ones out. Its makespans are the
# planner's for the group policy on the same team (param_server_schedule_test.cpp), exactly.
set(exit 1)
set(generated ON)
set(checks
  -DMAKESPANS=default=1870,jitter=1830.239,worker-failure=4686,tight-staleness=1870,many-workers=2644.5,pull-failure=2832,late-failure=1870,many-staleness=2644.5,seed-1-0=2974.616,seed-1-1=4935.92,seed-1-2=2305.005,seed-1-3=1774.757)
