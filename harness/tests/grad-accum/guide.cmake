# The grad-accum guide's own tests (included from ../CMakeLists.txt).

# Find the bug: a validator frees the snapshot's slot when it takes the snapshot off the queue,
# not when its validation ends. With validators that keep up (`default`) nothing shows; with
# 1500 ms validations on 2 validators the snapshots waiting in the queue hold slots nobody counts.
overlap_find_the_bug(grad-accum EXIT 1 CHECKS -DVERDICT=fail -DCORRECT=OFF -DKINDS=out-of-memory
  "-DARGS=--scenario slow-validator"
  "-DOUTPUT_MATCHES=at 480 ms: snapshot of step 8: snapshot slots holds 4 snapshots, over its budget of 3")

# Variants of the reference (overlap_variant): the designs the guide's score sheet and mistakes
# table name, each correct, with its makespans pinned.

# A static split, worker w taking micro-batches w, w + W, ...: the straggler gets two of every
# step's eight, 18 x (200 + 20) + 350 = 4310 ms on `straggler`, `slow`; optimal where the workers
# are alike.
overlap_variant(grad-accum static_split EXIT 1
  REPLACE "plan[pick].push_back(step * n + i)" "plan[i % t.num_workers()].push_back(step * n + i)"
  CHECKS -DCORRECT=ON -DKINDS=
  -DMAKESPANS=default=1430,straggler=4310,no-early-stop=1790,slow-validator=7620,uneven-validators=1310,other-data=1530)

# Each micro-batch to the worker free first (pull, as in param-server): the straggler takes one
# at 0 ms, 18 x (100 + 20) + 350 = 2510 ms on `straggler`, `pass`.
overlap_variant(grad-accum pull_split EXIT 0
  REPLACE "(plan[w].size() + 1) * t.worker(w)" "plan[w].size() * t.worker(w)"
          "(plan[pick].size() + 1) * t.worker(pick)" "plan[pick].size() * t.worker(pick)"
  CHECKS -DCORRECT=ON -DKINDS=
  -DMAKESPANS=default=1430,straggler=2510,no-early-stop=1790,slow-validator=7620,uneven-validators=1310,other-data=1530)

# One validator, overlapped with training: `pass` where validations are short, `slow` on
# `slow-validator` (120 + 9 x 1500 = 13620 ms).
overlap_variant(grad-accum one_validator EXIT 1
  REPLACE "v < t.num_validators()" "v < 1"
  CHECKS -DCORRECT=ON -DKINDS=
  -DMAKESPANS=default=3270,straggler=3310,no-early-stop=4320,slow-validator=13620,uneven-validators=3270,other-data=3420)

# The lowest validation loss restored instead of the last improvement by more than min_delta:
# the decision comes at the right moment with the wrong checkpoint (`wrong-result`).
overlap_variant(grad-accum lowest_loss EXIT 1
  REPLACE "ga::Checkpoint best" "ga::Checkpoint lowest, best"
          "if (best.step() < 0 ||"
          "if (lowest.step() < 0 || check.loss() < lowest.loss()) lowest = check<semicolon>\n        if (best.step() < 0 ||"
          "t.stop(best)" "t.stop(lowest)"
  CHECKS -DVERDICT=fail -DCORRECT=OFF -DKINDS=wrong-result
  "-DOUTPUT_MATCHES=stop\\(\\) restored the snapshot of step 14. the best check is check 6")

# The same program on every named scenario: optimal wherever the validators keep up, so the bug
# shows only on `slow-validator` (the guide's table of what the grader says of it).
overlap_grade_test(find-the-bug.grad-accum.named LABEL mutant GRADER find-the-bug-grad-accum EXIT 1
  CHECKS
  -DMAKESPANS=default=1430,straggler=1790,no-early-stop=1790,slow-validator=7620,uneven-validators=1310,other-data=1530)

# The fast-solver branch: a generated scenario where the reference (each check to the validator
# free first, the one idle longest) is `pass`: it hands checks to an idle 809 ms validator.
overlap_grade_test(solution.grad-accum.seed-44-2 LABEL solution GRADER grade-grad-accum-solution
  EXIT 0 CHECKS "-DARGS=--scenario seed-44-2" -DVERDICT=pass -DCORRECT=ON -DKINDS=
  -DMAKESPANS=seed-44-2=2330.42)
