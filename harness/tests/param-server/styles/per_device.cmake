# Like every param-server style, one gradient a push: correct everywhere, short of the best known
# where averages pay (many-workers, the staleness bounds, the failures' tails), and slow on
# many-staleness, where 32 workers pushing in turn age every gradient past the bound.
set(exit 1)
set(checks -DMAKESPANS=default=1476,jitter=1352.747,worker-failure=2624,tight-staleness=1870,many-workers=1715.5,pull-failure=2050,late-failure=1495,many-staleness=5877)
