#!/usr/bin/env bash
# An interview's record, end to end: a scripted sequence of grades (as the script's grade makes
# them for the candidate's file: the interview running the judge), hints given aloud and edits gives the
# expected progression; the outcome follows from it and the interviewer's marks; the page loads
# in headless Chromium with a point per grade, a section per version and a line per hint; an
# export regraded by --import agrees with the record; grades of other files are not recorded.
#   session_test.sh <kit root> <judge> <interview> <scratch folder>
set -euo pipefail
root="$1" judge="$2" interview="$3" work="$4"
fail() { echo "session test: $*" >&2; exit 1; }
rm -rf "$work" && mkdir -p "$work"
export OVERLAP_SESSIONS="$work/sessions"
sessions="$OVERLAP_SESSIONS/pipeline"
file="$work/train.cpp"

# One save and grade of the candidate's file; the judge's exit code is checked.
grade() {  # <expected exit> <file to save first> [scenario, two-stage if none]
  cp "$2" "$file"
  local status=0
  "$interview" grade pipeline --sessions "$sessions" --judge "$judge" -- --submission "$file" \
    --submission-name exercises/pipeline/train.cpp --scenario "${3:-two-stage}" \
    >"$work/last.txt" 2>&1 || status=$?
  [[ $status -eq $1 ]] || { cat "$work/last.txt"; fail "a grade of $2 exited $status, not $1"; }
}

"$root/overlap" starter pipeline >"$work/starter.cpp"
{ cat "$work/starter.cpp"; echo "this does not build"; } >"$work/broken.cpp"

grade 1 "$work/starter.cpp"                                   # slow
"$root/overlap" session pipeline --hint 1 >/dev/null
grade 3 "$work/broken.cpp"                                    # an edit that does not build
"$root/overlap" session pipeline --hint 3 >/dev/null
grade 1 "$root/guides/find-the-bug/pipeline.cpp"              # out of memory
grade 0 "$root/solutions/pipeline/train.cpp"                  # optimal
grade 0 "$root/solutions/pipeline/train.cpp"                  # the same version again

# Practising alone: the hint ./overlap hint shows is recorded (its own state is put back after).
state="$root/build/hints/pipeline"
saved="$(cat "$state" 2>/dev/null || true)"
"$root/overlap" hint pipeline 2 >/dev/null
if [[ -n "$saved" ]]; then echo "$saved" >"$state"; else rm -f "$state"; fi

progression="$("$root/overlap" session pipeline)"
echo "$progression"
expected=(
  '^ +[0-9]+  session started$'
  '^ +[0-9]+  version 1, --scenario two-stage only: two-stage slow$'
  '^ +[0-9]+  hint 1, given aloud$'
  '^ +[0-9]+  version 2: did not build$'
  '^ +[0-9]+  hint 3, given aloud$'
  '^ +[0-9]+  version 3, --scenario two-stage only: two-stage fail$'
  '^        first violation: two-stage: out-of-memory at 20 ms: forward\(step 0, mb 2\): stage 0 activations holds 3 stashes, over its budget of 2$'
  '^ +[0-9]+  version 4, --scenario two-stage only: two-stage optimal$'
  '^ +[0-9]+  version 4, --scenario two-stage only: two-stage optimal$'
  '^ +[0-9]+  hint 2, shown$')
mapfile -t got < <(tail -n +2 <<<"$progression")
[[ ${#got[@]} -eq ${#expected[@]} ]] || fail "the progression has ${#got[@]} lines, not ${#expected[@]}"
for i in "${!expected[@]}"; do
  [[ "${got[$i]}" =~ ${expected[$i]} ]] || fail "progression line $((i + 1)): '${got[$i]}'"
done

# The version recorded is the text the judge graded.
last_source="$(python3 -c 'import json, sys
grades = [e for e in map(json.loads, open(sys.argv[1])) if e["event"] == "grade"]
print(grades[-1]["source"], end="")' "$sessions"/*/events.jsonl)"
cmp -s <(printf '%s\n' "$last_source") "$root/solutions/pipeline/train.cpp" ||
  fail "the session does not hold the text graded"

# The outcome: optimal, but after Hint 3 (an insight hint): code 3, so Hire at best.
status=0
"$root/overlap" score pipeline --predictions 2,1 >"$work/score.txt" 2>&1 || status=$?
[[ $status -eq 2 ]] && grep -q "give --communication, --follow-ups" "$work/score.txt" ||
  fail "score without the interviewer's marks did not ask for them"
score="$("$root/overlap" score pipeline --predictions 2,1 --communication 2 --follow-ups 2,2)"
echo "$score"
# The final version was graded on two-stage alone: the score grades it on the default set.
grep -Eq "^  the final version on the default set, graded now: default optimal, .*two-stage optimal" \
  <<<"$score" || fail "score did not grade the final version on the default set"
grep -Eq "^  hints \(minute\): 1 \([0-9]+\), 3 \([0-9]+\), 2 \([0-9]+, shown\)$" <<<"$score" ||
  fail "score did not read the hints"
grep -Eq "^  code +3  row Hire: final tier optimal; Hint 3 given" <<<"$score" ||
  fail "the code score is not 3 (optimal, less one for Hint 3)"
grep -q "^outcome: Hire$" <<<"$score" || fail "the outcome is not Hire"
grep -q "^outcome: No$" <(
  "$root/overlap" score pipeline --predictions 2,2 --communication 2 --follow-ups 2,2 --defended) ||
  fail "a misunderstanding defended did not give No"
# The predictions not asked: a blank cell, never a zero; the outcome line names them.
grep -q "^outcome: Hire; Lean no if the predictions add up to 0–1: ask that question$" <(
  "$root/overlap" score pipeline --predictions -,- --communication 2 --follow-ups 2,2) ||
  fail "predictions not asked did not leave a blank cell"

# A regrade afterwards on a seed never shown: a report of the last version on seed 2 is taken (it
# does not fail there, so nothing changes); one on the seed the candidate saw, or of another file,
# is refused.
"$root/overlap" session pipeline --last "$work/last.cpp" >/dev/null
cmp -s "$work/last.cpp" "$root/solutions/pipeline/train.cpp" || fail "--last is not the last version"
"$judge" pipeline --submission "$work/last.cpp" --scenario generated \
  --seed 2 --generated 1 --json "$work/unseen.json" >/dev/null 2>&1 || true
grep -q "^outcome: Hire$" <("$root/overlap" score pipeline --predictions 2,1 --communication 2 \
  --follow-ups 2,2 --unseen "$work/unseen.json") || fail "a report on an unseen seed was not taken"
"$judge" pipeline --submission "$root/solutions/pipeline/train.cpp" --scenario generated \
  --generated 1 --json "$work/seen.json" >/dev/null 2>&1 || true
"$judge" pipeline --submission "$work/starter.cpp" --scenario generated --seed 2 \
  --generated 1 --json "$work/other.json" >/dev/null 2>&1 || true
for refused in "seen.json:which the candidate saw" "other.json:grades another file"; do
  status=0
  "$root/overlap" score pipeline --predictions 2,1 --communication 2 --follow-ups 2,2 \
    --unseen "$work/${refused%%:*}" >"$work/refused.txt" 2>&1 || status=$?
  [[ $status -eq 2 ]] && grep -q "${refused#*:}" "$work/refused.txt" ||
    fail "score took ${refused%%:*}: $(cat "$work/refused.txt")"
done

# The page, in a real browser.
"$root/overlap" session pipeline --html "$work/session.html" >/dev/null
chromium=$(command -v chromium || command -v chromium-browser) || fail "chromium is not installed"
dom="$(timeout -k 10 60 "$chromium" --headless=new --no-sandbox --disable-gpu \
  --user-data-dir="$work/profile" --enable-logging=stderr --v=0 --dump-dom \
  "file://$work/session.html" 2>"$work/chromium.log")" || fail "chromium could not load the page"
! grep -E ":CONSOLE|Uncaught" "$work/chromium.log" || fail "the page wrote to the console"
count() { grep -o "$1" <<<"$dom" | wc -l; }
# The chart plots the file's tiers: grades of the default set, and a version that did not build;
# a run of one scenario is a row of the progression.
[[ $(count '<circle class="grade') -eq 1 ]] || fail "the chart plots runs of one scenario"
[[ $(count '<tr class="grade partial"') -eq 4 ]] || fail "the runs of one scenario are not rows"
[[ $(count '<section class="version"') -eq 4 ]] || fail "the page has not one diff per version"
[[ $(count '<line class="hint"') -eq 3 ]] || fail "the chart has not one line per hint"
[[ $(count 'data-tier="build"') -eq 1 ]] || fail "the build error is not on the chart"
grep -q '<pre class="report">pipeline: OPTIMAL\|OPTIMAL (two-stage optimal' <<<"$dom" ||
  fail "the last report is not the last grade's"

# Exported, then imported: each version regraded here once on the default set, the same tiers as
# the record's on two-stage, a new session beside; the record's hints and times marked reported.
"$root/overlap" session pipeline --export "$work/export.json" >/dev/null
before="$(ls "$sessions" | grep -vc current)"
imported="$("$root/overlap" session pipeline --import "$work/export.json")"
echo "$imported"
grep -q "regraded the record.s 4 versions (5 grades) on the default set into session .*; 0 differ from the record" \
  <<<"$imported" || fail "the import did not regrade every version to the same verdicts"
[[ "$(ls "$sessions" | grep -vc current)" -eq $((before + 1)) ]] ||
  fail "the import did not start a session of its own beside the old one"
again="$("$root/overlap" session pipeline)"
echo "$again"
expected=(
  '^ +0  session started  \[reported by the candidate.s machine, not scored\]$'
  '^ +[0-9]+  version 1, seed 1: slow  \(default slow, .*\)  \[regraded here on the default set; its minute is the record.s\]$'
  '^ +[0-9]+  hint 1, given aloud  \[reported by the candidate.s machine, not scored\]$'
  '^ +[0-9]+  version 2: did not build  \[regraded here on the default set; its minute is the record.s\]$'
  '^ +[0-9]+  hint 3, given aloud  \[reported by the candidate.s machine, not scored\]$'
  '^ +[0-9]+  version 3, seed 1: fail  \(default fail, .*\)  \[regraded here on the default set; its minute is the record.s\]$'
  '^        first violation: default: out-of-memory at '
  '^ +[0-9]+  version 4, seed 1: optimal  \(default optimal, .*\)  \[regraded here on the default set; its minute is the record.s\]$'
  '^ +[0-9]+  hint 2, shown  \[reported by the candidate.s machine, not scored\]$')
mapfile -t got < <(tail -n +2 <<<"$again")
[[ ${#got[@]} -eq ${#expected[@]} ]] ||
  fail "the imported progression has ${#got[@]} lines, not ${#expected[@]}"
for i in "${!expected[@]}"; do
  [[ "${got[$i]}" =~ ${expected[$i]} ]] || fail "imported progression line $((i + 1)): '${got[$i]}'"
done
# A forged record: the candidate's file claims optimal for the starter; the regrade says slow.
python3 - "$work/export.json" "$work/forged.json" <<'PY'
import json, sys
s = json.load(open(sys.argv[1]))
grade = next(e for e in s["events"] if e["event"] == "grade")
grade["verdict"] = "optimal"
s["events"] = [s["events"][0], grade]
json.dump(s, open(sys.argv[2], "w"))
PY
grep -q "the record says optimal (two-stage slow; parts of the set only), this kit grades slow on the default set  <- differs" \
  <("$root/overlap" session pipeline --import "$work/forged.json") ||
  fail "a forged verdict was not caught by the regrade"

# The 15-minute format reads the card's one scenario alone (pipeline: `default`) and asks for its
# own marks. The reference graded on two-stage alone, its final version: the score grades it on
# `default`, optimal, Strong hire; with Hint 4 given, Hire.
status=0
"$root/overlap" score pipeline --format 15-minute --approach 2 --debrief 2 --predictions 2,1 \
  >"$work/quick.txt" 2>&1 || status=$?
[[ $status -eq 2 ]] && grep -q "the 15-minute rule does not ask for --predictions" "$work/quick.txt" ||
  fail "the 15-minute score took the 45-minute marks: $(cat "$work/quick.txt")"
quick() { "$root/overlap" score pipeline --format 15-minute --approach 2 --debrief 2; }
grade 0 "$root/solutions/pipeline/train.cpp" two-stage
grep -q '^  the final version on scenario `default`, graded now: default optimal$' <(quick) &&
  grep -q "^outcome: Strong hire$" <(quick) || fail "the 15-minute score of optimal: $(quick)"
"$root/overlap" session pipeline --hint 4 >/dev/null
grep -Eq "^  code +2  row Hire: final tier optimal; Hint 4 given" <(quick) &&
  grep -q "^outcome: Hire$" <(quick) || fail "the 15-minute score after Hint 4: $(quick)"

# Through the script: a grade of the candidate's file is recorded (whatever it holds now), a
# grade of the reference is not.
export OVERLAP_SESSIONS="$work/script-sessions"
"$root/overlap" grade pipeline --solution --scenario two-stage >/dev/null
[[ ! -e "$OVERLAP_SESSIONS" ]] || fail "a grade of --solution was recorded"
"$root/overlap" grade pipeline --scenario two-stage >/dev/null 2>&1 || true
sha="$(sha256sum "$root/exercises/pipeline/train.cpp" | cut -d' ' -f1)"
grep -q "\"sha256\":\"$sha\"" "$OVERLAP_SESSIONS"/pipeline/*/events.jsonl ||
  fail "a grade of exercises/pipeline/train.cpp was not recorded"
echo "session test: grades, hints, the page, the score, export and import as expected"
