# The tests behind guides/fsdp.md (included from ../CMakeLists.txt): its find-the-bug program, the
# design and variants its checked tables name, and a blind spot of the grader, pinned.

# Find the bug: the gatherer takes a parameter buffer after its all_gather instead of before the
# issue. At the turn the last two layers hold both buffers, and layer 9's gather makes three.
overlap_find_the_bug(fsdp EXIT 1 CHECKS -DVERDICT=fail -DCORRECT=OFF -DKINDS=out-of-memory
  "-DOUTPUT_MATCHES=at 130 ms: rank 0: all_gather\\(layer 9\\): rank 0 parameters holds 3 layers, over its budget of 2")

# The reference without its copier's brake, graded on straggler-rank, where the fast ranks' copies
# outrun the gathers (rank 3 sets their pace): a layer's two copies merge.
overlap_variant(fsdp unbraked_copier REJECTED
  FROM "for (<semicolon> seen <= first[i]<semicolon> ++seen) co_await issued.async_receive(use_awaitable)"
  TO "// no brake: the copies run ahead of the gathers"
  CHECKS -DKINDS=misuse "-DARGS=--scenario straggler-rank"
  "-DOUTPUT_MATCHES=rank 0: all_gather\\(layer 9\\) without copy_in\\(layer 9\\) done first")
# The reference without its gradient cap, graded on straggler-rank, where the reduce-scatters fall
# behind the fast ranks' backwards.
overlap_variant(fsdp no_gradient_cap REJECTED
  REPLACE "co_await grad_buffers.async_send(error_code{}, use_awaitable)" "// no gradient buffer taken"
          "grad_buffers.try_receive([](error_code) {})" "// none given back"
  CHECKS -DKINDS=out-of-memory "-DARGS=--scenario straggler-rank"
  "-DOUTPUT_MATCHES=rank 0: backward\\(layer 9\\): rank 0 gradients holds 3 layers, over its budget of 2")

# Lock-step slots (designs/lock_step.cpp, graded as designs/lock_step.cmake says) on the stretch
# scenarios: `pass` on each.
overlap_grade_test(design.fsdp.lock_step.stretch LABEL solution GRADER design-fsdp-lock_step
  EXIT 0 CHECKS "-DARGS=--scenario stretch" -DCORRECT=ON -DKINDS= -DVERDICT=pass
  -DMAKESPANS=stretch-slow-copies=740,stretch-three-buffers=970,stretch-large-layer=770)

# The reference keeping only the last layer through the turn: with gathers at 30 ms and three
# buffers it gathers one layer more than it needs to (`pass`, the planner's 740 for one kept).
overlap_variant(fsdp kept_one
  FROM "std::min(static_cast<int>(param_buffers.capacity()), layers)" TO "1"
  CHECKS "-DARGS=--scenario stretch-three-buffers" -DMAKESPANS=stretch-three-buffers=740)

# What the grader cannot see, pinned: the reference with one change, graded like the reference.
# If the grader ever tells it apart, the test fails and the guide's card changes.
# The signal from gatherer to compute with room for one, where the reference's has room for every
# gather: a capacity found by trial grades like a reasoned one on the named and the public seed's
# generated scenarios (the parameter buffers hold the gatherer back first).
overlap_variant(fsdp signals_of_one FROM "Channel gathered(executor, needed.size())"
  TO "Channel gathered(executor, 1)" EXIT 0 LABEL solution GENERATED
  CHECKS -DVERDICT=optimal -DCORRECT=ON -DKINDS= "-DMAKESPANS=${solution_makespans}")
