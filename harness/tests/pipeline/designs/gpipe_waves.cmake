# The simplest correct design that bounds memory, GPipe in waves of the tightest budget: `pass` on
# the named scenarios, `slow` on the default set (anchor.pipeline.gpipe_waves: the card's Lean no
# anchor).
set(exit 0)
set(checks -DVERDICT=pass
  -DMAKESPANS=default=1260,imbalanced=1620,deep=5400,two-stage=1080)
