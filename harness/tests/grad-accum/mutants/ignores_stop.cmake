set(checks ${rejected} -DKINDS=applied-after-stop,running-after-stop "-DARGS=--scenario default")
