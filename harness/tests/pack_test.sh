#!/usr/bin/env bash
# A candidate's bundle, as a candidate gets it: packed from the committed tree, unpacked in a
# scratch folder; what must not be there is not, reset and hint behave as in a bundle, and its own
# ./overlap grades the starter there (installing nothing new, building its own grader).
#   pack_test.sh <kit root> <scratch folder> <exercise> <the kit's judge> <the kit's interview>
set -euo pipefail
root="$1" work="$2" exercise="$3" judge="$4" interview="$5"
fail() { echo "pack test: $*" >&2; exit 1; }
rm -rf "$work" && mkdir -p "$work"
"$root/overlap" pack "$exercise" --out "$work/bundle.tar.gz"
tar -xzf "$work/bundle.tar.gz" -C "$work"
kit="$work/overlap-$exercise"
for absent in solutions guides harness/tests build; do
  [[ ! -e "$kit/$absent" ]] || fail "$absent is in the bundle"
done
for other in $(ls "$root/exercises"); do
  [[ -d "$root/exercises/$other" && "$other" != "$exercise" ]] || continue
  [[ ! -e "$kit/exercises/$other" ]] || fail "exercises/$other is in the bundle"
done
[[ "$(grep -vc '^#' "$kit/exercises/manifest.tsv")" -eq 1 ]] || fail "the manifest lists other exercises"
grep -rq "solutions/$exercise/train.cpp" "$kit/exercises" && fail "the bundle points at the solution"
cmp -s "$kit/exercises/$exercise/train.cpp" "$kit/exercises/$exercise/.starter/train.cpp" ||
  fail "the bundle's pristine starter differs from its starter"

echo "// the candidate's edit" >>"$kit/exercises/$exercise/train.cpp"
"$kit/overlap" reset "$exercise"
cmp -s "$kit/exercises/$exercise/train.cpp" "$kit/exercises/$exercise/.starter/train.cpp" ||
  fail "reset did not bring the starter back"
ls "$kit/build/reset/$exercise-"*.cpp >/dev/null || fail "reset did not keep the candidate's file"
if "$kit/overlap" hint "$exercise" >/dev/null 2>&1; then fail "a bundle gave out hints"; fi

status=0
output="$("$kit/overlap" grade "$exercise" 2>&1)" || status=$?
echo "$output" | tail -3
[[ $status -eq 1 ]] || fail "grading the starter in the bundle exited $status, not 1 (slow)"
grep -Eq "^$exercise: SLOW \(" <<<"$output" || fail "the starter was not graded slow"
grep -q "overlap: building the grader" <<<"$output" || fail "the first build did not say so"
# The candidate's grade is in the bundle's session; exported, the interviewer's kit regrades it.
"$kit/overlap" session "$exercise" --export "$work/session.json" >/dev/null
imported="$("$interview" session "$exercise" --sessions "$work/interviewer" --judge "$judge" \
  --import "$work/session.json")"
grep -q "regraded the record.s 1 versions (1 grades) on the default set into session .*; 0 differ" \
  <<<"$imported" || fail "the bundle's session did not import: $imported"
echo "pack test: the $exercise bundle holds what it should and grades its starter"
