# What the tests expect of this exercise: the makespan of its reference solution and of its
# starter in every scenario (simulated milliseconds, exact).
set(solution_makespans default=80)
set(starter_makespans default=240)
# The paths the reference takes on generated scenarios: links with as many shards each, or not.
set(generated_paths even-split,uneven-split)
