#!/usr/bin/env bash
# The candidate's first grade: from a fresh clone of the kit's committed HEAD (packages already
# installed), `./overlap grade <exercise>` on the untouched starter, which configures, builds
# the exercise's judge and grades. Prints the wall time of the whole command, the CPU time of its
# build, and each target's compile time (the sum over its translation units, from Ninja's log),
# the slowest first. Run it on an otherwise idle machine: the wall time is what a candidate waits.
#   harness/bench/first_grade.sh [exercise ...]   (default: pipeline)
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
exercises=("$@")
[[ ${#exercises[@]} -gt 0 ]] || exercises=(pipeline)
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT

for exercise in "${exercises[@]}"; do
  clone="$work/$exercise"
  git clone -q "$root" "$clone"
  start=$(date +%s.%N)
  status=0
  /usr/bin/time -f '%U %S' -o "$work/cpu" "$clone/overlap" grade "$exercise" \
    >"$work/out" 2>&1 || status=$?
  wall=$(awk -v s="$start" -v e="$(date +%s.%N)" 'BEGIN { printf "%.1f", e - s }')
  if [[ $status -ne 0 && $status -ne 1 ]]; then
    cat "$work/out" >&2
    echo "first_grade: the grade ended with exit $status" >&2
    exit 1
  fi
  cpu=$(awk '{ printf "%.1f", $1 + $2 }' "$work/cpu")
  graded=$(grep -o 'graded [0-9]* scenarios* in [0-9.]* s of real time' "$work/out" || true)
  printf '%s: first grade %s s wall (%s), %s s CPU, %s cores\n' \
    "$exercise" "$wall" "$graded" "$cpu" "$(nproc)"
  # .ninja_log: start ms, end ms, mtime, output, hash. Compile times, summed by target.
  awk 'NR > 1 && $4 ~ /\.o$|\.pch$/ {
         target = $4
         sub(/^.*CMakeFiles\//, "", target); sub(/\.dir\/.*$/, "", target)
         seconds[target] += ($2 - $1) / 1000; files[target]++; total += ($2 - $1) / 1000 }
       END {
         for (t in seconds) printf "  %7.1f s  %2d file(s)  %s\n", seconds[t], files[t], t
         printf "  %7.1f s  in all (compile time under the build'\''s own load)\n", total }' \
    "$clone/build/.ninja_log" | sort -rn
done
