set(checks ${rejected} -DKINDS=out-of-memory)
