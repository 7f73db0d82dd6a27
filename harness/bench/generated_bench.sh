#!/usr/bin/env bash
# Generated scenarios, in figures: for each exercise, over 200 seeds (their four scenarios each)
# how far the best known sits above the bound and how long a scenario takes to plan
# (overlap-planner-bench); the real time to generate and grade 50 scenarios with the reference
# solution; and the reference's share of `optimal` and `pass`, and its worst scenario against the
# best known. (That no correct program of the kit beats a best known is the ctest
# generated.<exercise>.best-known-holds.)
#   harness/bench/generated_bench.sh [--seeds N] [exercise ...]
# Uses the default build (./overlap setup), building the judge and the references first.
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
seeds=200
if [[ "${1:-}" == --seeds ]]; then seeds="$2"; shift 2; fi
exercises=("$@")
if [[ ${#exercises[@]} -eq 0 ]]; then
  while IFS=$'\t' read -r name _; do
    [[ -z "$name" || "$name" == \#* ]] || exercises+=("$name")
  done <"$root/exercises/manifest.tsv"
fi
build="$root/build"
targets=(overlap-judge overlap-planner-bench)
for exercise in "${exercises[@]}"; do
  targets+=("grade-$exercise-solution" "overlap-launcher-$exercise")
done
cmake --build "$build" --target "${targets[@]}" >/dev/null
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
for exercise in "${exercises[@]}"; do
  "$build/harness/overlap-planner-bench" --seeds "$seeds" "$exercise"
  judge=("$build/harness/overlap-judge" "$exercise"
         --program "$build/harness/libgrade-$exercise-solution.so" --scenario generated)
  start=$(date +%s.%N)
  "${judge[@]}" --seed 1 --generated 50 >/dev/null || true
  seconds=$(awk -v s="$start" -v e="$(date +%s.%N)" 'BEGIN { printf "%.2f", e - s }')
  mkdir -p "$work/$exercise"
  for seed in $(seq 1 "$seeds"); do
    "${judge[@]}" --seed "$seed" --json "$work/$exercise/$seed.json" >/dev/null || true
  done
  summary=$(cmake -DREPORTS="$work/$exercise" -P "$root/harness/bench/generated_summary.cmake" 2>&1)
  printf '%-13s 50 generated scenarios graded in %s s; over %s seeds: %s\n' "$exercise" \
    "$seconds" "$seeds" "$summary"
done
