# What the tests expect of this exercise: the makespan of its reference solution and of its
# starter in every scenario (simulated milliseconds, exact).
set(solution_makespans default=990,imbalanced=1350,deep=3510,two-stage=810)
set(starter_makespans default=2880,imbalanced=3240,deep=23040,two-stage=1440)
