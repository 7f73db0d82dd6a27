# Like every param-server style, one gradient a push: correct everywhere, short of the best known
# where averages pay (many-workers, the staleness bounds, the failures' tails), and slow on
# many-staleness, where 32 workers pushing in turn age every gradient past the bound.
set(exit 1)
set(checks -DMAKESPANS=default=1479,jitter=1343.022,worker-failure=2649,tight-staleness=1883,many-workers=2166,pull-failure=2053,late-failure=1520,many-staleness=7030)
