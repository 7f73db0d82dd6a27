# Work left behind: what runs at stop() is waited for instead of cancelled.
set(checks ${rejected} -DKINDS=running-after-stop "-DARGS=--scenario default"
  "-DOUTPUT_MATCHES=ran on past stop\\(\\) at [0-9]+ ms, until [0-9]+ ms: cancel what is running")
