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
programs=0 differ=0
for grader in build/harness/grade-* build/harness/tests/{mutant,variant,style}-*; do
  [[ -x $grader && $grader != *-submission ]] || continue
  name="$(basename "$grader")"
  other="build-gcc/${grader#build/}"
  "$grader" --time-limit 5 --json "$work/clang.json" >/dev/null 2>&1 || true
  "$other" --time-limit 5 --json "$work/gcc.json" >/dev/null 2>&1 || true
  a="$(summary "$work/clang.json")" b="$(summary "$work/gcc.json")"
  programs=$((programs + 1))
  if [[ "$a" != "$b" ]]; then
    differ=$((differ + 1))
    printf '%s\n  clang++: %s\n  g++:     %s\n' "$name" "$a" "$b"
  fi
done
echo "$programs programs graded with both compilers; $differ graded differently"
