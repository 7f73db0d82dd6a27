# Work left behind: detached coroutines train on after stop() and after train returned.
set(checks ${rejected} -DKINDS=applied-after-stop,running-after-stop,unfinished-work
  "-DARGS=--scenario default"
  "-DOUTPUT_MATCHES=apply\\(step 19\\) was still running when train returned at 3590 ms")
