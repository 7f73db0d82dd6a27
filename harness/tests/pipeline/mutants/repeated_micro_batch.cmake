set(checks ${rejected} "-DKINDS=duplicate-update,lost-update,wrong-result")
