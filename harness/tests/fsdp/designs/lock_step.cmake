# Lock-step slots, the simplest overlapped design that is correct everywhere: each slot waits for
# its slowest stream. `pass` on the named scenarios, `slow` on one generated scenario of the
# default set (anchor.fsdp.lock_step: the card's Hire anchor, explained).
set(exit 0)
set(checks
  -DMAKESPANS=default=510,comm-bound=990,compute-bound=760,straggler-rank=635,eight-ranks=571.667)
