#!/usr/bin/env bash
# Two grades at once: HOLDER keeps a secret in its memory for two seconds of real time; READER,
# graded meanwhile, looks for every process it can see and searches their memory for it. Prints
# the reader's "train threw" line, and "two grades: ..." when the holder's grade went wrong.
#   two_grades.sh JUDGE HOLDER READER
set -uo pipefail
judge="$1" holder="$2" reader="$3"
"$judge" pipeline --program "$holder" --scenario two-stage >/dev/null 2>&1 &
holding=$!
sleep 0.5
out="$("$judge" pipeline --program "$reader" --scenario two-stage 2>&1)"
echo "reader: $(grep -m1 'train threw' <<<"$out")"
wait "$holding"
held=$?
# The holder throws its secret after two seconds: a failed grade, exit 1.
[[ $held -eq 1 ]] || echo "two grades: the holder's grade ended with exit $held"
