#!/usr/bin/env bash
# The figures that change with the machine, kept in one file, harness/bench/figures.tsv: each
# benchmark records there what it measured (an entry: name, text as the docs show it, the
# benchmark, the date, the machine's cores). The docs quote an entry only between markers,
#   <!-- figure protocol.rate.two-cpus -->810 000 operations a second<!-- /figure -->
# and unit.doc_figures checks each marked text against the file, and that no time or rate is
# written outside markers.
#   harness/bench/figures.sh record BENCH NAME TEXT   an entry, just measured by the benchmark
#                                                     BENCH (what the benchmarks call)
#   harness/bench/figures.sh docs                     every marked text rewritten from the file
#   harness/bench/figures.sh                          the entries
set -euo pipefail
root="$(cd "$(dirname "$(readlink -f "${BASH_SOURCE[0]}")")/../.." && pwd)"
file="$root/harness/bench/figures.tsv"

case "${1:-}" in
  record)
    [[ $# -eq 4 && "$3" =~ ^[a-z0-9.-]+$ && "$4" != *$'\t'* ]] ||
      { echo "figures: record BENCH NAME TEXT (a name of a-z, 0-9, '.' and '-')" >&2; exit 2; }
    line="$(printf '%s\t%s\t%s\t%s\t%s' "$3" "$4" "$2" "$(date -u +%F)" "$(nproc)")"
    { [[ ! -f "$file" ]] || awk -F'\t' -v n="$3" '!/^#/ && $1 != n' "$file"; echo "$line"; } |
      sort >"$file.new"
    { printf '# written by the benchmarks (figures.sh record): name, text, benchmark, date, cores\n'
      cat "$file.new"; } >"$file"
    rm -f "$file.new"
    echo "recorded $3: $4"
    ;;
  docs)
    # Every Markdown file of the kit but the build folders'.
    mapfile -t docs < <(find "$root" -name 'build*' -prune -o -name '.*' -prune -o -name '*.md' -print)
    while IFS=$'\t' read -r name text _; do
      [[ "$name" == \#* ]] && continue
      NAME="$name" TEXT="$text" perl -pi -e \
        's/(<!-- figure \Q$ENV{NAME}\E -->).*?(<!-- \/figure -->)/$1$ENV{TEXT}$2/g' "${docs[@]}"
    done <"$file"
    echo "figures: the docs' marked figures rewritten from $file"
    ;;
  "") cat "$file" ;;
  *) echo "figures: unknown command '$1'; valid: record BENCH NAME TEXT, docs" >&2; exit 2 ;;
esac
