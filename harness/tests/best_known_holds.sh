#!/usr/bin/env bash
# Grades programs on the generated scenarios of seeds 1..SEEDS (four each), one judge run per
# program (a replayed list of the scenarios' names), and checks with overlap-best-known-check that
# no correct run beats its scenario's best known by more than 2 % (and, with --reached, that some
# correct run reaches each within 2 %).
#   best_known_holds.sh <judge> <checker> <exercise> <seeds> <work folder> [--report] [--reached]
#                       PROGRAM...
# With --report, prints the figures and exits 0 whatever they show (the benchmark's use).
set -euo pipefail
judge="$1" checker="$2" exercise="$3" seeds="$4" work="$5"
shift 5
check=--check
if [[ "${1:-}" == --report ]]; then check=""; shift; fi
reached=""
if [[ "${1:-}" == --reached ]]; then reached=--reached; shift; fi
mkdir -p "$work"
list="$work/scenarios.json"
{
  printf '{"exercise":"%s","seed":1,"scenarios":[' "$exercise"
  for seed in $(seq 1 "$seeds"); do
    for k in 0 1 2 3; do
      [[ $seed == 1 && $k == 0 ]] || printf ','
      printf '{"name":"seed-%s-%s"}' "$seed" "$k"
    done
  done
  printf ']}\n'
} >"$list"
reports=()
for program in "$@"; do
  report="$work/$(basename "$program").json"
  rm -f "$report"
  status=0
  "$judge" "$exercise" --program "$program" --replay "$list" --json "$report" >/dev/null || status=$?
  if [[ $status -gt 1 || ! -s "$report" ]]; then
    echo "$program: the judge exited $status" >&2
    exit 1
  fi
  reports+=("$report")
done
"$checker" $check $reached "${reports[@]}"
