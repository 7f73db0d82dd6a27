#!/usr/bin/env bash
# A file saved again while the kit builds: the grade is of the version saved when the command
# started, and ends by saying that a newer one is waiting. The save happens inside the build, by
# a `cmake` first on the PATH that appends a line to the file and then builds as usual.
#   saved_while_building.sh KIT WORK
set -euo pipefail
kit="$1" work="$2"
rm -rf "$work"
mkdir -p "$work/bin"
"$kit/overlap" starter pipeline >"$work/train.cpp"
starter_sha="$(sha256sum "$work/train.cpp" | cut -c1-16)"
cat >"$work/bin/cmake" <<SCRIPT
#!/bin/sh
echo 'saved while the kit builds: not C++' >>'$work/train.cpp'
exec '$(command -v cmake)' "\$@"
SCRIPT
chmod +x "$work/bin/cmake"

status=0
out="$(PATH="$work/bin:$PATH" "$kit/overlap" grade pipeline --submission "$work/train.cpp" \
         --scenario two-stage 2>&1)" || status=$?
echo "$out"
fail() { echo "saved_while_building: $*" >&2; exit 1; }
grep -q 'saved while the kit builds' "$work/train.cpp" || fail "the file was not saved again"
# The starter grades (slow, exit 1) where the newer file would not have built (exit 3).
[[ $status -eq 1 ]] || fail "expected the starter's exit 1, got $status"
grep -q "sha256 $starter_sha" <<<"$out" || fail "the report is not of the starter ($starter_sha)"
tail -n 1 <<<"$out" | grep -q 'was saved again after the grade began' ||
  fail "the last line does not say that a newer version is waiting"
echo "graded the version saved when the command started, and said a newer one waits"
