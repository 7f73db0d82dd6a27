set(checks ${rejected} -DKINDS=early-decision,lost-update,wrong-result "-DARGS=--scenario default")
