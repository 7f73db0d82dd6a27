# What the tests expect of this exercise: the makespan of its reference solution and of its
# starter in every scenario (simulated milliseconds, exact).
set(solution_makespans default=1476,jitter=1352.747,worker-failure=2624,tight-staleness=1870,many-workers=1715.5)
set(starter_makespans default=4920,jitter=1830.239,worker-failure=6438,tight-staleness=4920,many-workers=5216)
