#!/usr/bin/env bash
# A candidate's export imported by the interviewer, as a forger would write it (forge_export.py):
# only the record's files, regraded here on the default set, can raise the outcome; its times and
# hints are kept as reported; what is malformed is refused, naming the event, and what is shown
# of its text is escaped.
#   session_import.sh <kit root> <judge> <interview> <scratch folder> <case>
# Cases: forged, versions, older-versions, clock, and the refusals times-go-back, after-export,
# far-off, oversized, missing-text, wrong-fingerprint, exercise-escape, text-escape.
set -euo pipefail
root="$1" judge="$2" interview="$3" work="$4" case="$5"
fail() { echo "session import ($case): $*" >&2; exit 1; }
rm -rf "$work" && mkdir -p "$work"
sessions="$work/sessions"
here="$(dirname "$(readlink -f "${BASH_SOURCE[0]}")")"
forge() { python3 "$here/forge_export.py" "$work/export.json" "$1"; }
esc=$'\x1b'

# The import's output (stdout and stderr) in $work/out.txt; its exit code in $status.
run_import() {
  status=0
  "$interview" session pipeline --sessions "$sessions" --judge "$judge" \
    --import "$work/export.json" >"$work/out.txt" 2>&1 || status=$?
  cat "$work/out.txt"
}
progression() { "$interview" session pipeline --sessions "$sessions"; }
# The imported session's events, one JSON object a line.
events() { cat "$sessions"/*/events.jsonl; }
# Refused: exit 2, the message matching $1, and no session made.
refused() {
  run_import
  [[ $status -eq 2 ]] || fail "not refused (exit $status)"
  grep -Eq -- "$1" "$work/out.txt" || fail "refused, but not saying '$1'"
  ! grep -q "$esc" "$work/out.txt" || fail "the refusal prints the record's escape sequence raw"
  [[ ! -d "$sessions" ]] || [[ -z "$(ls "$sessions")" ]] || fail "a refused import made a session"
}

# Optimal on two-stage (two stages: the reference's 1F1B), one micro-batch at a time elsewhere
# (no warm-up): slow on every other scenario.
sed 's/const int warmup = std::min(/const int warmup = pipe.num_stages() != 2 ? 0 : std::min(/' \
  "$root/solutions/pipeline/train.cpp" >"$work/two_stage_only.cpp"
grep -q 'num_stages() != 2' "$work/two_stage_only.cpp" || fail "the reference changed: no warm-up"
starter="$root/exercises/pipeline/train.cpp"

case "$case" in
  forged)
    # One grade of the file on two-stage alone, at minute 22, no hint given aloud but one the
    # record says: the record claims optimal. Here: its grade on the default set, slow.
    forge '{"events": [{"minute": 10, "event": "hint", "hint": 1},
      {"minute": 22, "event": "grade", "file": "'"$work/two_stage_only.cpp"'",
       "scenario": "two-stage", "verdict": "optimal", "scenarios": [["two-stage", "optimal"]]}]}'
    run_import
    [[ $status -eq 0 ]] || fail "the import failed (exit $status)"
    grep -q "version 1: the record says optimal (two-stage optimal; parts of the set only), this kit grades slow on the default set$" \
      "$work/out.txt" || fail "the import does not say the record graded a part only"
    grep -q "regraded the record's 1 versions (1 grades) on the default set" "$work/out.txt" ||
      fail "the import did not regrade the one version"
    python3 - "$sessions" <<'PY' || fail "the session is not the default set's grade"
import glob, json, sys
events = [json.loads(l) for f in glob.glob(sys.argv[1] + "/*/events.jsonl") for l in open(f)]
grades = [e for e in events if e["event"] == "grade"]
hints = [e for e in events if e["event"] == "hint"]
assert len(grades) == 1, grades
g = grades[0]
assert g["verdict"] == "slow" and g["full_set"] and g.get("regraded") and not g.get("reported"), g
tiers = {s["name"]: s["verdict"] for s in g["scenarios"]}
assert tiers["two-stage"] == "optimal" and tiers["default"] == "slow" and len(tiers) == 8, tiers
assert len(hints) == 1 and hints[0].get("reported"), hints
assert events[0]["event"] == "start" and events[0].get("reported"), events[0]
PY
    progression | tee "$work/progression.txt"
    grep -Eq "^ +22  version 1, seed 1: slow  \(default slow, .*two-stage optimal.*\)  \[regraded here on the default set; its minute is the record's\]$" \
      "$work/progression.txt" || fail "the progression does not show the regrade as such"
    grep -Eq "^ +10  hint 1, given aloud  \[reported by the candidate's machine, not scored\]$" \
      "$work/progression.txt" || fail "the progression does not mark the record's hint"
    # The same file claimed optimal on the default set: the claim differs.
    rm -rf "$sessions"
    forge '{"events": [{"minute": 22, "event": "grade", "file": "'"$work/two_stage_only.cpp"'",
      "verdict": "optimal", "scenarios": [["default", "optimal"], ["two-stage", "optimal"]]}]}'
    run_import
    grep -q "version 1: the record says optimal, this kit grades slow on the default set  <- differs$" \
      "$work/out.txt" || fail "a forged verdict of the default set was not caught"
    grep -q "; 1 differ from the record$" "$work/out.txt" || fail "the count of those differing"
    ;;

  versions)
    # Versions are texts: five grades of two files, in the order A A B A B, are two versions
    # regraded once each; the session holds each run once, numbered as first seen.
    broken="$work/broken.cpp"
    { cat "$starter"; echo "this does not build"; } >"$broken"
    forge '{"events": [
      {"minute": 1, "event": "grade", "file": "'"$starter"'", "scenario": "two-stage",
       "verdict": "slow", "scenarios": [["two-stage", "slow"]]},
      {"minute": 2, "event": "grade", "file": "'"$starter"'", "scenario": "default",
       "verdict": "slow", "scenarios": [["default", "slow"]]},
      {"minute": 3, "event": "grade", "file": "'"$broken"'", "built": false},
      {"minute": 4, "event": "grade", "file": "'"$starter"'", "verdict": "slow",
       "scenarios": [["default", "slow"]]},
      {"minute": 5, "event": "grade", "file": "'"$broken"'", "built": false}]}'
    run_import
    [[ $status -eq 0 ]] || fail "the import failed (exit $status)"
    grep -q "regraded the record's 2 versions (5 grades) on the default set.*; 0 differ" \
      "$work/out.txt" || fail "not two versions regraded"
    grep -q "version 2: the record says did not build, this kit grades did not build$" \
      "$work/out.txt" || fail "the version that did not build is not recorded as such"
    progression | tee "$work/progression.txt"
    mapfile -t got < <(grep -oE '^ +[0-9]+  version [0-9]+(: did not build|, seed 1: slow)' \
      "$work/progression.txt" | sed -E 's/ +/ /g')
    expected=(" 1 version 1, seed 1: slow" " 3 version 2: did not build" " 4 version 1, seed 1: slow"
              " 5 version 2: did not build")
    [[ "${got[*]}" == "${expected[*]}" ]] || fail "the versions shown: ${got[*]}"
    ;;

  older-versions)
    # Seventeen versions (files that do not build: quick to regrade): the newest fifteen are
    # regraded, the two oldest shown as recorded and marked unverified, their text escaped.
    spec='{"events": ['
    for n in $(seq 1 17); do
      spec+='{"minute": '"$n"', "event": "grade", "text": "version '"$n"' does not build\n",'
      if [[ $n -eq 1 ]]; then
        spec+='"verdict": "optimal", "scenarios": [["default", "optimal", "none \u001b[2J at all"]]},'
      else
        spec+='"built": false},'
      fi
    done
    forge "${spec%,}]}"
    run_import
    [[ $status -eq 0 ]] || fail "the import failed (exit $status)"
    grep -q "regraded the record's 15 versions (17 grades) on the default set.*; 2 older versions shown as recorded, unverified$" \
      "$work/out.txt" || fail "not fifteen regraded and two unverified"
    grep -q "version 1: the record says optimal; not regraded (older than the newest 15): shown as recorded, unverified$" \
      "$work/out.txt" || fail "the oldest version is not said to be unverified"
    progression >"$work/progression.txt"
    grep -q "^ *1  version 1, seed 1: optimal  (default optimal)  \[as the candidate's machine recorded it, unverified: not regraded, not scored\]$" \
      "$work/progression.txt" || fail "the unverified version is not marked: $(cat "$work/progression.txt")"
    grep -qF 'first violation: default: none \x1b[2J at all' "$work/progression.txt" ||
      fail "the record's violation is not shown escaped"
    ! grep -q "$esc" "$work/progression.txt" || fail "the progression prints an escape raw"
    [[ $(events | grep -c '"regraded":true') -eq 15 ]] || fail "not fifteen grades regraded"
    [[ $(events | grep '"event":"grade"' | grep -c '"reported":true') -eq 2 ]] ||
      fail "not two grades kept as reported"
    "$interview" session pipeline --sessions "$sessions" --html "$work/page.html" >/dev/null
    ! grep -q "$esc" "$work/page.html" || fail "the page holds an escape raw"
    [[ $(grep -o '<circle class="grade' "$work/page.html" | wc -l) -eq 15 ]] ||
      fail "the chart plots other than this kit's grades"
    ;;

  clock)
    # The session begins at the command's start (the script's, before its build), not when the
    # grade is recorded; a later command's start moves nothing.
    { cat "$starter"; echo "this does not build"; } >"$work/train.cpp"
    started=$(( $(date +%s) - 180 ))
    for at in "$started" $(( started - 600 )); do
      "$interview" grade pipeline --sessions "$sessions" --judge "$judge" --started-at "$at" -- \
        --submission "$work/train.cpp" --submission-name exercises/pipeline/train.cpp \
        >/dev/null 2>&1 || true
    done
    first="$(head -1 "$sessions"/*/events.jsonl)"
    [[ "$first" == "{\"event\":\"start\",\"time\":$started}" ]] || fail "the session starts: $first"
    progression | grep -Eq "^ +3  version 1: did not build$" ||
      fail "the grade is not at minute 3: $(progression)"
    ;;

  times-go-back)
    forge '{"events": [{"minute": 30, "event": "hint", "hint": 1},
      {"minute": 20, "event": "grade", "file": "'"$starter"'", "verdict": "slow"}]}'
    refused "event 3 \(a grade at [0-9]+\) is earlier than event 2 \(at [0-9]+\): the record's times go back"
    ;;
  after-export)
    forge '{"exported_at": 60, "events": [{"minute": 90, "event": "grade", "file": "'"$starter"'"}]}'
    refused "event 2 \(a grade at [0-9]+\) is after the export was made \(at [0-9]+\)"
    ;;
  far-off)
    # A hint at minute 2 000 000 000, in an export of schema 1 (no time of its own): this
    # machine's clock bounds it.
    forge '{"schema_version": 1, "events": [{"minute": 2000000000, "event": "hint", "hint": 1}]}'
    refused "event 2 \(a hint at [0-9]+\) is more than a day ahead of this machine's clock"
    ;;
  oversized)
    python3 -c 'import sys; sys.stdout.write("// " + "x" * (16 << 20) + "\n")' >"$work/big.cpp"
    forge '{"events": [{"minute": 5, "event": "grade", "file": "'"$work/big.cpp"'"}]}'
    refused "event 2 \(a grade at [0-9]+\) holds a version of 16777220 bytes, over the 16 MiB the judge grades"
    ;;
  missing-text)
    forge '{"events": [{"minute": 5, "event": "grade", "text": "", "verdict": "optimal"}]}'
    refused "event 2 \(a grade at [0-9]+\) is of a version whose text the record does not hold"
    ;;
  wrong-fingerprint)
    forge '{"events": [{"minute": 5, "event": "grade", "file": "'"$starter"'",
      "raw": {"sha256": "'"$(sha256sum "$root/solutions/pipeline/train.cpp" | cut -d' ' -f1)"'"}}]}'
    refused "event 2 \(a grade at [0-9]+\) names a sha256 that is not its text's"
    ;;
  exercise-escape)
    forge '{"exercise": "\u001b]0;owned\u0007\u001b[2Jpipeline", "events": []}'
    refused 'a session of "\\x1b\]0;owned\\x07\\x1b\[2Jpipeline", not of pipeline'
    ;;
  text-escape)
    # Text the record supplies and the import shows (a scenario's name, in what the record says)
    # is escaped; a hint that is not a number is no event.
    forge '{"events": [{"minute": 5, "event": "grade", "file": "'"$starter"'",
      "scenario": "two-stage", "verdict": "slow",
      "scenarios": [["two-stage\u001b[2J\nminute 0, version 9: forged", "slow", "x\u001b[1A"]]}]}'
    run_import
    [[ $status -eq 0 ]] || fail "the import failed (exit $status)"
    ! grep -q "$esc" "$work/out.txt" || fail "the import prints the record's escape raw"
    grep -qF 'the record says slow (two-stage\x1b[2J\x0aminute 0, version 9: forged slow; parts' \
      "$work/out.txt" || fail "the record's scenario name is not shown escaped"
    rm -rf "$sessions"
    forge '{"events": [{"minute": 5, "event": "hint", "hint": "\u001b[2J1"}]}'
    refused "event 2 is not a session's event"
    ;;
  *) fail "no such case" ;;
esac
echo "session import ($case): as expected"
