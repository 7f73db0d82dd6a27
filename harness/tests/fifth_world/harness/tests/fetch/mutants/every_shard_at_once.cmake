# Four shards on each of three links at once: contention on every link.
set(checks ${rejected} -DKINDS=contention "-DARGS=--scenario default")
