#!/usr/bin/env bash
# An interview's import: a candidate's export of 60 grades of 15 distinct files (pipeline: copies
# of the starter, of the reference and of a reference slow off two-stage, each with a comment of
# its own; each file graded four times: two-stage alone, default alone, the default set, the
# default set again), written as the export is, imported by the interviewer's kit. Prints the
# import's real time in seconds (each file regraded once on the default set, two judges at once).
#   harness/bench/session_import.sh [build folder, default build/]
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
build="${1:-$root/build}"
interview="$build/harness/overlap-interview" judge="$build/harness/overlap-judge-pipeline"
[[ -x "$interview" && -x "$judge" ]] ||
  cmake --build "$build" --target overlap-interview overlap-judge-pipeline >/dev/null
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT

sed 's/const int warmup = std::min(/const int warmup = pipe.num_stages() != 2 ? 0 : std::min(/' \
  "$root/solutions/pipeline/train.cpp" >"$work/two_stage_only.cpp"
bases=("$root/exercises/pipeline/train.cpp" "$root/solutions/pipeline/train.cpp"
       "$work/two_stage_only.cpp")
spec='{"exported_at": 119, "events": ['
minute=1
for n in $(seq 1 15); do
  file="$work/v$n.cpp"
  { cat "${bases[$(( n % 3 ))]}"; echo "// version $n"; } >"$file"
  for scenario in two-stage default "" ""; do
    spec+='{"minute": '"$minute"', "event": "grade", "file": "'"$file"'", "scenario": "'"$scenario"'",
            "verdict": "slow"},'
    minute=$(( minute + 1 ))
  done
done
python3 "$root/harness/tests/forge_export.py" "$work/export.json" "${spec%,}]}"

start=$(date +%s.%N)
"$interview" session pipeline --sessions "$work/sessions" --judge "$judge" \
  --import "$work/export.json" >"$work/out.txt" 2>&1 || { cat "$work/out.txt"; exit 1; }
seconds="$(awk -v s="$start" -v e="$(date +%s.%N)" 'BEGIN { printf "%.1f", e - s }')"
tail -2 "$work/out.txt" | head -1
echo "import of 60 grades of 15 files: $seconds s"
