#!/usr/bin/env bash
# The candidate's first grade: from a fresh clone of the kit's committed HEAD (packages already
# installed), configure as `./overlap` does, then `./overlap grade <exercise>` on the untouched
# starter, which builds the exercise's judge and grades. Prints the wall time of each part (what a
# candidate waits: run it on an otherwise idle machine), and the CPU time of each build target
# (the sum over its translation units, each compile timed alone: steady on a busy machine too),
# the heaviest first. The first grade of HEAD is recorded (figures.sh: first-grade.<exercise>).
# --at REV measures an earlier commit the same way, for a before and after; --everything builds
# all that `./overlap test` builds instead of grading (the build's share of a test run).
#   harness/bench/first_grade.sh [--at REV] [--everything] [exercise ...]   (default: pipeline)
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
at=HEAD everything=0
while [[ $# -gt 0 && "$1" == --* ]]; do
  case "$1" in
    --at) at="$2"; shift 2 ;;
    --everything) everything=1; shift ;;
    *) echo "first_grade: unknown option $1" >&2; exit 2 ;;
  esac
done
exercises=("$@")
[[ ${#exercises[@]} -gt 0 ]] || exercises=(pipeline)
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT

# Every compile through this launcher appends "<user s> <system s> <object>" to $work/cpu.log.
cat >"$work/timed" <<LAUNCHER
#!/bin/sh
out=unknown previous=
for arg in "\$@"; do
  [ "\$previous" = -o ] && out="\$arg"
  previous="\$arg"
done
exec /usr/bin/time -f "%U %S \$out" -a -o '$work/cpu.log' "\$@"
LAUNCHER
chmod +x "$work/timed"

seconds_since() { awk -v s="$1" -v e="$(date +%s.%N)" 'BEGIN { printf "%.1f", e - s }'; }

for exercise in "${exercises[@]}"; do
  clone="$work/$exercise"
  git clone -q "$root" "$clone"
  git -C "$clone" checkout -q "$at"
  : >"$work/cpu.log"
  start=$(date +%s.%N)
  cmake --preset default -S "$clone" -DCMAKE_CXX_COMPILER_LAUNCHER="$work/timed" >/dev/null
  configured=$(seconds_since "$start")
  start=$(date +%s.%N)
  status=0
  if [[ $everything -eq 1 ]]; then
    cmake --build "$clone/build" >"$work/out" 2>&1 || status=$?
  else
    "$clone/overlap" grade "$exercise" >"$work/out" 2>&1 || status=$?
  fi
  graded=$(seconds_since "$start")
  if [[ $status -ne 0 && $status -ne 1 ]]; then
    cat "$work/out" >&2
    echo "first_grade: the grade ended with exit $status" >&2
    exit 1
  fi
  run=$(grep -o 'graded [0-9]* scenarios* in [0-9.]* s of real time' "$work/out" || true)
  what="first grade" part="build and grade"
  [[ $everything -eq 0 ]] || what="everything built" part="build"
  total="$(awk -v a="$configured" -v b="$graded" 'BEGIN { printf "%.0f", a + b }')"
  printf '%s at %s: %s %s s on %s cores: configure %s s, %s %s s %s\n' "$exercise" \
    "$(git -C "$clone" rev-parse --short HEAD)" "$what" "$total" "$(nproc)" "$configured" \
    "$part" "$graded" "${run:+($run)}"
  if [[ "$at" == HEAD && $everything -eq 0 ]]; then
    "$root/harness/bench/figures.sh" record first_grade.sh "first-grade.$exercise" "$total s" \
      >/dev/null
  fi
  awk '$3 ~ /\.(o|pch|gch)$/ {
         target = $3
         sub(/^.*CMakeFiles\//, "", target); sub(/\.dir\/.*$/, "", target)
         sub(/^.*submission_pch\/.*$/, "overlap_submission_pch", target)
         seconds[target] += $1 + $2; files[target]++; total += $1 + $2 }
       END {
         for (t in seconds) printf "  %6.1f s CPU  %2d compile(s)  %s\n", seconds[t], files[t], t
         printf "  %6.1f s CPU  in all\n", total }' "$work/cpu.log" | sort -rn
done
