# The param-server guide's own tests (included from ../CMakeLists.txt).

# Find the bug: one server coroutine averages what waits, but tells each sender to go on before
# the apply_average that still occupies it; the worker's next pull meets that apply.
overlap_find_the_bug(param-server EXIT 1 CHECKS -DVERDICT=fail -DCORRECT=OFF -DKINDS=contention
  "-DARGS=--scenario default"
  "-DOUTPUT_MATCHES=worker 0 is busy: pull\\(v0\\) was submitted at 11 ms while send\\(mb 0 from v0\\) runs from 11 to 12 ms")

# Variants of the reference (overlap_variant): the designs the guide's mistakes table and
# fast-solver branch name, each correct, their makespans pinned.

# Averages applied as soon as anything waits, never paced: `optimal` without a bound, `pass` under
# one (versions advance at every apply, so fewer workers stay within it).
overlap_variant(param-server unpaced FROM "if (bound < 0) return 0;" TO "return 0;" EXIT 0
  CHECKS -DCORRECT=ON -DKINDS=
  -DMAKESPANS=default=1476,jitter=1351.844,worker-failure=2624,tight-staleness=1860,many-workers=1634,pull-failure=1980,late-failure=1476,many-staleness=2214.5)

# Paced by the fastest worker even without a bound: every worker waits for it, for nothing;
# `slow` on `jitter`, where the pacer's own draws set everyone's pace.
overlap_variant(param-server paced_always FROM "if (bound < 0) return 0;"
  TO "if (bound < 0) return 1;" EXIT 1 CHECKS -DCORRECT=ON -DKINDS=
  -DMAKESPANS=default=1536,jitter=1898.905,worker-failure=2710,tight-staleness=1656,many-workers=1851.5,pull-failure=2052,late-failure=1536,many-staleness=1925.5)

# The fast-solver branch: a stale gradient's mini-batch recomputed and its worker kept, never
# retired. The same as the reference on the named scenarios; on `stretch-fastest-fails`, once the
# fastest worker fails and the pace slows down, the slowest worker's gradients count again:
# `optimal` where the reference, which retired it for good, is `pass`. One of the rules the planner
# credits (worlds/param-server/planner.hpp: kit_rules): its best known there.
overlap_variant(param-server never_retire KIT FROM "if (working_ > 1) {" TO "if (false) {" EXIT 0
  CHECKS "-DARGS=--scenario stretch" -DVERDICT=optimal -DCORRECT=ON -DKINDS=
  -DMAKESPANS=stretch-slow-server=1674,stretch-fastest-fails=2556)

# The fast-solver branch: one push per gradient where a push costs 1 ms. 2048 pushes keep the
# server busy 2048 ms, the queue ages gradients by tens of versions, and the model misses its
# target loss (`wrong-result`); `pass` where the fastest worker fails under a bound.
overlap_grade_test(style.param-server.callbacks.stretch LABEL solution
  GRADER style-param-server-callbacks EXIT 1 CHECKS "-DARGS=--scenario stretch"
  -DMAKESPANS=stretch-slow-server=2097,stretch-fastest-fails=4202
  "-DOUTPUT_MATCHES=final loss 0.002799 is above the target 0.0025")
