#!/usr/bin/env bash
# What the sandbox's namespaces cost, from one run: entering one (bubblewrap with the run's
# root, as the judge starts it, 20 times); every named and default generated scenario of the
# four references (their programs as the tests build them) and edit -> verdict of a reference,
# each with the namespaces and without (--no-sandbox), alternately, five times: the medians. A
# grade enters them once for its runs (the sandbox's host) and three times for a build.
# Records them (figures.sh: sandbox.entry, sandbox.references[.no-sandbox],
# sandbox.edit-to-verdict[.no-sandbox]).
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

entry() {  # one entry into a run's root, milliseconds, the mean of 20
  local start as=()
  [[ $(id -u) -eq 0 ]] && as=(setpriv --reuid=65534 --regid=65534 --clear-groups)
  start=$(date +%s.%N)
  for i in $(seq 20); do
    "${as[@]}" bwrap --unshare-user --unshare-pid --unshare-ipc --unshare-net --die-with-parent \
      --ro-bind /usr /usr --symlink usr/lib /lib --symlink usr/lib64 /lib64 --proc /proc \
      -- /usr/bin/true
  done
  awk -v s="$start" -v e="$(date +%s.%N)" 'BEGIN { printf "%.1f", (e - s) * 1000 / 20 }'
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
record() { "$root/harness/bench/figures.sh" record sandbox_bench.sh "$@" >/dev/null; }
entered="$(entry)"
printf 'entering the sandbox once: %s ms\n' "$entered"
printf 'every scenario of the references (%d, four grades): %s s with the namespaces, %s s without\n' \
  "$scenarios" "$(median "${with[@]}")" "$(median "${without[@]}")"
printf 'edit -> verdict, %s: %s s with the namespaces, %s s without\n' "$edited" \
  "$(median "${edit_with[@]}")" "$(median "${edit_without[@]}")"
record sandbox.entry "$entered ms"
record sandbox.references "$(printf '%.2f s' "$(median "${with[@]}")")"
record sandbox.references.no-sandbox "$(printf '%.2f s' "$(median "${without[@]}")")"
record sandbox.edit-to-verdict "$(printf '%.1f s' "$(median "${edit_with[@]}")")"
record sandbox.edit-to-verdict.no-sandbox "$(printf '%.1f s' "$(median "${edit_without[@]}")")"
