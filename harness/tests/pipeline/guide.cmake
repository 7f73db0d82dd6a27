# The pipeline guide's own tests (included from ../CMakeLists.txt).

# Find the bug: 1F1B with p - s warm-up forwards before forward-then-backward pairs, one stash too
# many on every stage; stage 0 goes over its budget in every named scenario.
overlap_find_the_bug(pipeline EXIT 1 CHECKS -DVERDICT=fail -DCORRECT=OFF -DKINDS=out-of-memory
  "-DOUTPUT_MATCHES=at 40 ms: forward\\(step 0, mb 4\\): stage 0 activations holds 5 stashes, over its budget of 4")

# The fast-solver branch: a run-time scheduler (a ready backward first, a forward while a stash is
# free) reaches the best known on both stretch scenarios, where the reference's fixed order is
# `pass`.
overlap_grade_test(style.pipeline.per_device.stretch LABEL solution GRADER style-pipeline-per_device
  EXIT 0 CHECKS "-DARGS=--scenario stretch" -DCORRECT=ON -DKINDS= -DVERDICT=optimal
  -DMAKESPANS=stretch-two-stashes=1530,stretch-slow-first=1080)

# What the grader cannot see, pinned: if it ever learns to, these tests say so and the guide's
# card changes. Each is the reference with one change.

# The last stage takes the newest forward output for its loss gradient, not the oldest: wrong in
# general, but under 1F1B the last stage never holds two outputs, so it grades `optimal`.
overlap_variant(pipeline newest_output_first FROM "front()" TO "back()" LABEL solution EXIT 0
  CHECKS -DVERDICT=optimal -DCORRECT=ON -DKINDS= "-DMAKESPANS=${solution_makespans}")
# The warm-up not capped by the stash budget: identical to the reference on every named and
# generated scenario (their budgets are at least p - s); only a stretch scenario runs out.
overlap_variant(pipeline budget_ignored FROM "pipe.stash_budget(s) - 1, " TO "" EXIT 1
  CHECKS "-DARGS=--scenario stretch-two-stashes" -DVERDICT=fail -DCORRECT=OFF
  -DKINDS=out-of-memory)
# One slot per channel instead of a step's room: a rendezvous channel deadlocks, but any room at
# all grades the same, so the grader cannot tell a reasoned capacity from one found by trial.
overlap_variant(pipeline one_slot_links FROM "emplace_back(executor, pipe.micro_batches())"
  TO "emplace_back(executor, 1)" LABEL solution EXIT 0
  CHECKS -DVERDICT=optimal -DCORRECT=ON -DKINDS= "-DMAKESPANS=${solution_makespans}")
