# What the tests expect of this exercise: the makespan of its reference solution and of its
# starter in every scenario (simulated milliseconds, exact).
set(solution_makespans default=400,comm-bound=760,compute-bound=760,straggler-rank=580,eight-ranks=460)
set(starter_makespans default=1060,comm-bound=1640,compute-bound=1420,straggler-rank=1240,eight-ranks=1138.337)
# The paths the reference's runs take between them over generated scenarios (paths_taken).
set(generated_paths comm-bound,compute-bound,straggler-rank,uneven-layers,one-param-buffer,one-grad-buffer)
set(stretch_exit 0)
set(stretch_checks -DVERDICT=optimal
  "-DMAKESPANS=stretch-slow-copies=520,stretch-three-buffers=710,stretch-large-layer=630")
