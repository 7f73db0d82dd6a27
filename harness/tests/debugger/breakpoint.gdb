set breakpoint pending on
break overlap_submission_start
run
backtrace 1
continue
quit
