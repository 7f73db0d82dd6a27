set(checks -DVERDICT=slow -DCORRECT=ON -DKINDS= "-DARGS=--scenario default" -DMAKESPANS=default=4920)
