#!/usr/bin/env bash
# What the sandbox's namespaces cost, from one run: every named and default generated scenario
# of the four references (their programs as the tests build them), and edit -> verdict of a
# reference, each with the namespaces and without (--no-sandbox), alternately, five times; the
# medians, and the cost per scenario and per build.
#   harness/bench/sandbox_bench.sh [exercise for edit -> verdict, default grad-accum]
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
build="$root/build/harness"
edited="${1:-grad-accum}"
exercises=()
while IFS=$'\t' read -r name _; do
  [[ -z "$name" || "$name" == \#* ]] || exercises+=("$name")
done <"$root/exercises/manifest.tsv"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT

seconds() { awk -v s="$1" -v e="$(date +%s.%N)" 'BEGIN { printf "%.3f", e - s }'; }
median() { printf '%s\n' "$@" | sort -n | sed -n 3p; }

references() {  # [--no-sandbox]: every scenario of the four references, real seconds
  local start
  start=$(date +%s.%N)
  for e in "${exercises[@]}"; do
    "$build/overlap-judge" "$e" --program "$build/libgrade-$e-solution.so" "$@" >/dev/null || true
  done
  seconds "$start"
}

edit_to_verdict() {  # [--no-sandbox]: an edited reference rebuilt and graded, real seconds
  local start
  echo "// edit $RANDOM" >>"$work/$edited.cpp"
  start=$(date +%s.%N)
  "$root/overlap" grade "$edited" --submission "$work/$edited.cpp" "$@" >/dev/null 2>&1 || true
  seconds "$start"
}

scenarios=0
for e in "${exercises[@]}"; do
  n=$("$build/overlap-judge" "$e" --program "$build/libgrade-$e-solution.so" | grep -c '^  verdict')
  scenarios=$((scenarios + n))
done
cp "$root/solutions/$edited/train.cpp" "$work/$edited.cpp"
edit_to_verdict >/dev/null  # the first build warms the compiler's caches
with=() without=() edit_with=() edit_without=()
for i in 1 2 3 4 5; do
  with+=("$(references)")
  without+=("$(references --no-sandbox)")
  edit_with+=("$(edit_to_verdict)")
  edit_without+=("$(edit_to_verdict --no-sandbox)")
done
r_with=$(median "${with[@]}") r_without=$(median "${without[@]}")
e_with=$(median "${edit_with[@]}") e_without=$(median "${edit_without[@]}")
printf 'every scenario of the references (%d): %s s with the namespaces, %s s without\n' \
  "$scenarios" "$r_with" "$r_without"
printf 'edit -> verdict, %s: %s s with the namespaces, %s s without\n' "$edited" "$e_with" "$e_without"
awk -v a="$r_with" -v b="$r_without" -v n="$scenarios" \
  'BEGIN { printf "entering the sandbox: %.1f ms a scenario\n", (a - b) * 1000 / n }'
n_edited=$("$build/overlap-judge" "$edited" --program "$build/libgrade-$edited-solution.so" |
           grep -c '^  verdict')
awk -v a="$e_with" -v b="$e_without" -v ra="$r_with" -v rb="$r_without" -v n="$scenarios" \
    -v k="$n_edited" \
  'BEGIN { printf "entering the sandbox: %.0f ms a build (its three steps and the check that namespaces can be made)\n", ((a - b) - (ra - rb) * k / n) * 1000 }'
