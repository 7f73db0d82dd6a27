#!/usr/bin/env bash
# The admission refuses assembly by the compiler's own parse (clang++) or the assembly text (g++),
# never a correct program: the references, the styles and the designs, each built by the judge
# itself (--submission) and graded on its exercise's named scenarios, with clang++; the
# references with g++ too, through the script (which builds g++'s judges).
#   admits_correct_programs.sh <kit root> <overlap-judge>
set -euo pipefail
root="$1" judge="$2"
refused=0 graded=0
grade() {  # clang|gcc <exercise> <file>
  local exercise="$2" file="$3" status=0 out
  local how=("$judge" "$exercise")
  [[ "$1" == clang ]] || how=("$root/overlap" grade "$exercise" --compiler gcc)
  out="$("${how[@]}" --submission "$file" --scenario named 2>&1)" || status=$?
  graded=$((graded + 1))
  if [[ $status -gt 1 ]]; then
    echo "admission: ${file#"$root"/} exited $status:"
    tail -5 <<<"$out"
    refused=$((refused + 1))
  fi
}
while IFS=$'\t' read -r exercise _; do
  [[ -z "$exercise" || "$exercise" == \#* ]] && continue
  grade clang "$exercise" "$root/solutions/$exercise/train.cpp"
  grade gcc "$exercise" "$root/solutions/$exercise/train.cpp"
  for file in "$root/harness/tests/$exercise"/styles/*.cpp "$root/harness/tests/$exercise"/designs/*.cpp; do
    [[ ! -f "$file" ]] || grade clang "$exercise" "$file"
  done
done <"$root/exercises/manifest.tsv"
echo "admission: $graded builds of correct programs, $refused refused"
[[ $refused -eq 0 ]]
