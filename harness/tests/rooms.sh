#!/usr/bin/env bash
# The house's layering: which room of harness/ may include which (its arrows point one way), read
# from every #include of the kit's sources; and the judge's programs hold nothing of the interview
# (no symbol of overlap::interview is linked into them).
#   rooms.sh <harness folder> <judge program>...
set -euo pipefail
harness="$1"; shift
declare -A may=(
  [sim]="" [protocol]="" [verdict]="" [include]=""
  [client]="protocol"
  [sandbox]="client protocol"
  [report]="protocol verdict"
  [worlds]="client protocol sim verdict"
  [judge]="protocol report sandbox sim verdict worlds"
  [interview]="judge protocol report verdict worlds"
)
wrong=0
for room in "${!may[@]}"; do
  while IFS= read -r line; do
    file="${line%%:*}"
    target="$(sed -E 's#.*"((\.\./)+)([a-z_-]+)/.*#\1 \3#' <<<"${line#*:}")"
    ups="${target%% *}" included="${target#* }"
    # A path that climbs out of the room names another room; one that stays inside is its own.
    depth=$(( $(tr -cd '/' <<<"${file#"$harness/$room/"}" | wc -c) + 1 ))
    [[ $(( ${#ups} / 3 )) -ge $depth ]] || continue
    [[ "$included" != "$room" ]] || continue
    if [[ " ${may[$room]} " != *" $included "* ]]; then
      echo "rooms: $file includes $included/, which $room/ may not (it may: ${may[$room]:-none})"
      wrong=1
    fi
  done < <(grep -rHE '^#include "(\.\./)+[a-z_-]+/' "$harness/$room" || true)
done
for program in "$@"; do
  if nm -C "$program" | grep -q 'overlap::interview::'; then
    echo "rooms: $(basename "$program") links the interview's code"
    wrong=1
  fi
done
[[ $wrong -eq 0 ]] || exit 1
echo "rooms: every include points the house's way; the judges hold nothing of the interview"
