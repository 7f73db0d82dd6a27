set(checks ${rejected} -DKINDS=contention,out-of-memory)
