# What the tests expect of this exercise: the makespan of its reference solution and of its
# starter in every scenario (simulated milliseconds, exact).
set(solution_makespans default=990,imbalanced=1350,deep=3510,two-stage=810)
set(starter_makespans default=2880,imbalanced=3240,deep=23040,two-stage=1440)
# The paths the reference takes between them on generated scenarios: from the scenario, a budget
# that GPipe overflows and where the slowest stage sits; from the run, a stage holding its whole
# stash budget, and a makespan at the proven bound.
set(generated_paths gpipe-out-of-memory,slowest-stage-first,slowest-stage-middle,slowest-stage-last,stash-budget-full,bound-reached)
# The reference on the stretch scenarios: correct, and `pass` on both (its fixed 1F1B order idles
# where the budget is below 1F1B's need, and leaves stage 0's room unused when it is the slowest).
set(stretch_exit 0)
set(stretch_checks -DVERDICT=pass "-DMAKESPANS=stretch-two-stashes=2070,stretch-slow-first=1215")
