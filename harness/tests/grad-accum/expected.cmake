# What the tests expect of this exercise: the makespan of its reference solution and of its
# starter in every scenario (simulated milliseconds, exact).
set(solution_makespans default=1430,straggler=1790,no-early-stop=1790,slow-validator=7620,uneven-validators=1310,other-data=1530)
# The reference is `optimal` on the whole default generated set: on seed-1-2 only a schedule that
# knows the validators' speeds and the deciding check does better, and that is its hindsight
# figure, which no tier uses (guides/grad-accum.md).
set(solution_tiers "")
set(starter_makespans default=6390,straggler=6390,no-early-stop=8520,slow-validator=16740,uneven-validators=6390,other-data=6900)
# The paths the reference's runs take over generated scenarios (seeds 1..50, k = 0..3): each at
# least once.
set(generated_paths early-stop,no-early-stop,decision-mid-compute,decision-mid-apply,uneven-validators,results-out-of-order)
# The reference on the stretch scenarios: correct and optimal on both (550 ms validations, where
# the validators and the slots hold training back; more validators than slots).
set(stretch_exit 0)
set(stretch_checks -DVERDICT=optimal
    "-DMAKESPANS=stretch-slow-validation=2010,stretch-five-validators=2010")
