# What the tests expect of this exercise: the makespan of its reference solution and of its
# starter in every scenario (simulated milliseconds, exact).
set(solution_makespans default=1430,straggler=1790,no-early-stop=1790,slow-validator=7620,uneven-validators=1310,other-data=1530)
set(starter_makespans default=6390,straggler=6390,no-early-stop=8520,slow-validator=16740,uneven-validators=6390,other-data=6900)
