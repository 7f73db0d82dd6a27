#!/usr/bin/env bash
# A judge killed in the middle of a grade leaves no scratch folder behind once the next grade is
# over: killed with SIGTERM (caught: it removes its folder as it dies) or SIGKILL (not caught: the
# next judge removes the folder it abandoned); and no grade removes the folder of a judge that
# still runs.
#   killed_judge.sh <overlap-judge> <a pipeline submission that never ends (its shared object)>
set -euo pipefail
judge="$1" program="$2"
TMPDIR="$(mktemp -d)"
export TMPDIR
trap 'rm -rf "$TMPDIR"' EXIT

fail() { echo "killed_judge: $*" >&2; exit 1; }
folders() { find "$TMPDIR" -mindepth 1 -maxdepth 1 -name 'overlap-judge-*' | sort; }
count() { folders | grep -c . || true; }
# A grade that runs until the time limit (the submission loops).
grade() {
  exec "$judge" pipeline --program "$program" --scenario two-stage --time-limit 2 >/dev/null 2>&1
}
# Starts a grade, and returns once a scratch folder not in $1 exists.
start_grade() {
  grade &
  judge_pid=$!
  for _ in $(seq 300); do
    [[ -n "$(comm -13 <(echo "$1") <(folders))" ]] && return
    sleep 0.01
  done
  fail "no scratch folder appeared"
}

start_grade ""
sleep 0.2  # in the middle of the run
kill -TERM "$judge_pid"
wait "$judge_pid" && fail "the judge ended normally"
(( $(count) == 0 )) || fail "a judge killed by SIGTERM left its scratch folder"

start_grade ""
sleep 0.2
kill -KILL "$judge_pid"
wait "$judge_pid" && fail "the judge ended normally"
abandoned="$(folders)"
[[ -n "$abandoned" ]] || fail "a judge killed by SIGKILL cannot remove its folder: where is it?"

# The next grades, while another one runs: the abandoned folder goes, the running judge's stays.
start_grade "$abandoned"
[[ -z "$(comm -12 <(echo "$abandoned") <(folders))" ]] || fail "the abandoned folder is still there"
running="$(folders)"
"$judge" pipeline --program "$program" --scenario two-stage --time-limit 0.2 >/dev/null 2>&1 &&
  fail "the submission that never ends passed"
[[ "$(folders)" == "$running" ]] || fail "a grade removed the folder of a judge still running"
wait "$judge_pid" && fail "the judge ended normally"
(( $(count) == 0 )) || fail "a judge that ended left its scratch folder"
echo "killed_judge: no scratch folder left behind"
