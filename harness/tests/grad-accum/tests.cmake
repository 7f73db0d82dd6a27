# The grad-accum exercise's own tests beyond its programs' data: variants of the reference (the
# functions are those of ../CMakeLists.txt).

# Validation overlapped, but every gradient on worker 0: pass, 18 x 180 + 350 = 3590 ms.
overlap_variant(grad-accum worker_zero
  FROM "(plan[w].size() + 1) * t.worker(w).ms_per_gradient()" TO "1e9"
  CHECKS -DMAKESPANS=default=3590,straggler=3590,no-early-stop=4670,slow-validator=7860,uneven-validators=3440,other-data=3930)
# Gradients that ignore cancellation: on `default` the decision lands during an optimizer step
# (cancelled) and the variant is correct; on `other-data` it lands during a step's gradients,
# which run on past stop().
overlap_variant(grad-accum gradients_not_cancelled REJECTED
  FROM "t.worker(w).async_compute(weights, mb, use_awaitable)"
  TO "t.worker(w).async_compute(weights, mb, asio::bind_cancellation_slot(asio::cancellation_slot(), use_awaitable))"
  CHECKS "-DARGS=--scenario other-data" -DKINDS=running-after-stop
  "-DOUTPUT_MATCHES=worker 0: compute\\(mb 204 on step 25\\) ran on past stop\\(\\) at 1530 ms")
overlap_variant(grad-accum gradients_not_cancelled_default
  FROM "t.worker(w).async_compute(weights, mb, use_awaitable)"
  TO "t.worker(w).async_compute(weights, mb, asio::bind_cancellation_slot(asio::cancellation_slot(), use_awaitable))"
  CHECKS "-DARGS=--scenario default" -DVERDICT=optimal -DMAKESPANS=default=1430)
# The decider takes results in the order they arrive, not in check order: with uneven validators
# it decides early, on the wrong checks.
overlap_variant(grad-accum arrival_order REJECTED
  FROM "arrived.emplace(checkpoint.step() / every, checkpoint)"
  TO "arrived.emplace(static_cast<int>(arrived.size()) + 1, checkpoint)"
  CHECKS "-DARGS=--scenario uneven-validators" -DKINDS=early-decision,wrong-result)
