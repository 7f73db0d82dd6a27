set(checks ${rejected} "-DKINDS=lost-update,wrong-result")
