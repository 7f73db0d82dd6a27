#!/usr/bin/env bash
# Edit -> verdict: the time from saving a submission to reading its grade, as a candidate sees it.
# For each exercise, five times: change a copy of the reference solution (a new comment line),
# then `./overlap grade <exercise> --submission <copy>` (rebuild and all scenarios). Prints each
# time and the median, in seconds, and records the median (figures.sh: edit-to-verdict.<exercise>,
# .gcc after it for g++).
#   harness/bench/edit_to_verdict.sh [--compiler clang|gcc] [exercise ...]
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
compiler=clang
if [[ "${1:-}" == --compiler ]]; then compiler="$2"; shift 2; fi
exercises=("$@")
if [[ ${#exercises[@]} -eq 0 ]]; then
  while IFS=$'\t' read -r name _; do
    [[ -z "$name" || "$name" == \#* ]] || exercises+=("$name")
  done <"$root/exercises/manifest.tsv"
fi
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
for exercise in "${exercises[@]}"; do
  copy="$work/$exercise.cpp"
  cp "$root/solutions/$exercise/train.cpp" "$copy"
  "$root/overlap" grade "$exercise" --compiler "$compiler" --submission "$copy" >/dev/null || true
  times=()
  for i in 1 2 3 4 5; do
    echo "// edit $i" >>"$copy"
    start=$(date +%s.%N)
    "$root/overlap" grade "$exercise" --compiler "$compiler" --submission "$copy" >/dev/null || true
    times+=("$(awk -v s="$start" -v e="$(date +%s.%N)" 'BEGIN { printf "%.2f", e - s }')")
  done
  median=$(printf '%s\n' "${times[@]}" | sort -n | sed -n 3p)
  printf '%-13s %s  median %.2f s  (%s)\n' "$exercise" "$compiler" "$median" "${times[*]}"
  suffix=""
  [[ "$compiler" == clang ]] || suffix=".$compiler"
  "$root/harness/bench/figures.sh" record edit_to_verdict.sh "edit-to-verdict.$exercise$suffix" \
    "$(printf '%.1f s' "$median")" >/dev/null
done
