#!/usr/bin/env bash
# Which compiler builds submissions right: builds every grading program (starters, references,
# mutants, variants, the style programs) with clang++ (build/) and g++ (build-gcc/), grades each
# in every scenario, and prints one row per program whose reports differ between the two, with
# each compiler's verdict or crash per scenario. Takes a few minutes on a 2-core machine.
#   harness/bench/compilers.sh
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
cd "$root"
for preset in default gcc; do
  dir=build; [[ $preset == gcc ]] && dir=build-gcc
  [[ -f $dir/build.ninja ]] || cmake --preset "$preset" >/dev/null
  cmake --build "$dir" >/dev/null
done
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
summary() {  # scenario=verdict@makespan, or the violation kinds of a failed one
  python3 -c '
import json, sys
r = json.load(open(sys.argv[1]))
print(" ".join(s["name"] + "=" + (s["verdict"] + "@" + str(s["makespan_ms"]) if s["correct"]
      else "+".join(sorted({v["kind"] for v in s["violations"]}))) for s in r["scenarios"]))' "$1"
}
exercises="$(grep -v '^#' exercises/manifest.tsv | cut -f1)"
programs=0 differ=0
for module in build/harness/libgrade-*.so build/harness/tests/lib{mutant,variant,style}-*.so; do
  [[ -f $module ]] || continue
  name="$(basename "$module" .so)" name="${name#lib}"
  rest="${name#*-}" exercise=""
  for e in $exercises; do [[ $rest == "$e" || $rest == "$e"-* ]] && exercise=$e; done
  for dir in build build-gcc; do
    out="$work/$dir.json" file="$dir/${module#build/}"
    "$dir/harness/overlap-judge" "$exercise" --program "$file" --time-limit 5 --json "$out" \
      >/dev/null 2>&1 || true
  done
  a="$(summary "$work/build.json")" b="$(summary "$work/build-gcc.json")"
  programs=$((programs + 1))
  if [[ "$a" != "$b" ]]; then
    differ=$((differ + 1))
    printf '%s\n  clang++: %s\n  g++:     %s\n' "$name" "$a" "$b"
  fi
done
echo "$programs programs graded with both compilers; $differ graded differently"
