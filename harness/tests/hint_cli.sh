#!/usr/bin/env bash
# `./overlap hint`: a question first, what it unlocks only with --answer, the hints in order, the
# answer to the question last shown; the session records each question shown, once. The kit's
# hint counter is put back after; the sessions are the scratch folder's.
#   hint_cli.sh <kit root> <scratch folder> <exercise>
set -euo pipefail
root="$1" work="$2" exercise="$3"
fail() { echo "hint test: $*" >&2; exit 1; }
rm -rf "$work" && mkdir -p "$work"
export OVERLAP_SESSIONS="$work/sessions"
state="$root/build/hints/$exercise"
saved="$(cat "$state" 2>/dev/null || true)"
restore() { if [[ -n "$saved" ]]; then echo "$saved" >"$state"; else rm -f "$state"; fi; }
trap restore EXIT
rm -f "$state"
kit="$root/overlap"
count="$(grep -c '^\*\*Hint [0-9]' "$root/guides/hints/$exercise.md")"

if "$kit" hint "$exercise" --answer >/dev/null 2>&1; then fail "--answer before any question"; fi
for n in $(seq 1 "$count"); do
  out="$("$kit" hint "$exercise")"
  grep -q "^hint $n of $count for $exercise:" <<<"$out" || fail "hint $n not next: $out"
  grep -q "^\*\*Hint $n:.*\"" <<<"$out" || fail "hint $n shows no question"
  grep -q '^\*Unlocks:\*' <<<"$out" && fail "hint $n shows its answer unasked"
  grep -q -- "--answer" <<<"$out" || fail "hint $n does not say how to see the answer"
  out="$("$kit" hint "$exercise" --answer)"
  grep -q "^hint $n of $count" <<<"$out" || fail "--answer is not hint $n's: $out"
  grep -q "^\*\*Hint $n:" <<<"$out" || fail "--answer leaves out hint $n's question"
  grep -q '^\*Unlocks:\*' <<<"$out" || fail "--answer shows no answer for hint $n"
  grep -q "^\*\*Hint $((n + 1)):" <<<"$out" && fail "--answer of hint $n runs into the next hint"
done
"$kit" hint "$exercise" | grep -q "that was the last of $count hints" || fail "no end after $count"
out="$("$kit" hint "$exercise" 2 --answer)"
grep -q '^\*\*Hint 2:' <<<"$out" && grep -q '^\*Unlocks:\*' <<<"$out" || fail "hint 2 --answer"

# Recorded: each question as it was shown, hint 2 again when asked for by number.
recorded="$("$kit" session "$exercise" | grep -oE 'hint [0-9]+, shown' | grep -oE '[0-9]+' | xargs)"
[[ "$recorded" == "$(seq -s ' ' 1 "$count") 2" ]] || fail "the session recorded hints: $recorded"
echo "hint test: $count $exercise hints, each a question, its answer only with --answer"
