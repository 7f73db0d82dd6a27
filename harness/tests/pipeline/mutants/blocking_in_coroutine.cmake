set(checks ${rejected} -DKINDS=exception "-DOUTPUT_MATCHES=Stage::forward is a blocking call")
