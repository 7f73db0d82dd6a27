set(checks ${rejected} -DKINDS=crash "-DOUTPUT_MATCHES=signal 11")
