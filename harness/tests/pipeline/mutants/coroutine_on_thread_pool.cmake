# A throwing initiation inside a thread_pool's handler ends the process (Asio's pool rethrows).
set(checks ${rejected} -DKINDS=crash,misuse "-DARGS=--scenario two-stage"
  "-DOUTPUT_MATCHES=Stage::forward was called from a thread other than the one that runs train")
