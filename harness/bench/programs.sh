#!/usr/bin/env bash
# The kit's own benchmark programs, run in turn from the default build, their figures printed and
# recorded (figures.sh): the simulator's operations a second in the judge alone
# (overlap-simulator-bench: simulator.rate); the same shape of work through the protocol, judge
# and client in lock-step, free to use both CPUs and on one (overlap-protocol-bench:
# protocol.rate.two-cpus, .one-cpu); one round trip through the channel and through pipes
# (overlap-round-trip-bench: round-trip.channel.two-cpus, ...); and the CPU time to draw and plan
# a generated scenario, at the median and at the most over 200 seeds (overlap-planner-bench:
# planner.<exercise>.median, .max).
#   harness/bench/programs.sh
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
build="$root/build/harness"
cmake --build "$root/build" --target overlap-simulator-bench overlap-protocol-bench \
  overlap-round-trip-bench overlap-planner-bench >/dev/null
record() { "$root/harness/bench/figures.sh" record programs.sh "$@" >/dev/null; }
# 812345.6 -> "812 000": a rate to the thousand, grouped as the docs write it.
thousands() { awk -v r="$1" 'BEGIN { printf "%d 000", int(r / 1000 + 0.5) }'; }

out="$("$build/overlap-simulator-bench")"
echo "$out"
record simulator.rate "$(sed -nE 's/.*: ([0-9.]+) million operations per second/\1/p' <<<"$out" |
  awk '{ printf "%.1f", $1 }') million operations a second"

out="$("$build/overlap-protocol-bench")"
echo "$out"
record protocol.rate.two-cpus \
  "$(thousands "$(sed -nE 's/ *unpinned: *([0-9]+) operations.*/\1/p' <<<"$out")") operations a second"
record protocol.rate.one-cpu \
  "$(thousands "$(sed -nE 's/ *both on one CPU: *([0-9]+) operations.*/\1/p' <<<"$out")") operations a second"

out="$("$build/overlap-round-trip-bench")"
echo "$out"
for kind in channel pipes; do
  read -r free one < <(awk -v k="$kind" '$1 == k { print $(NF - 1), $NF }' <<<"$out")
  record "round-trip.$kind.two-cpus" "$free µs"
  record "round-trip.$kind.one-cpu" "$one µs"
done

out="$("$build/overlap-planner-bench")"
echo "$out"
while read -r exercise median most; do
  record "planner.$exercise.median" "$median ms"
  record "planner.$exercise.max" "$most ms"
done < <(sed -nE 's/^([a-z-]+) .*\(([0-9.]+) and ([0-9.]+) ms of CPU\)$/\1 \2 \3/p' <<<"$out")
