set(checks ${rejected} -DKINDS=exception,use-before-gather)
