#!/usr/bin/env bash
# Runs a command of the test suite as an ordinary user would: as root, as nobody (no
# capabilities), with WRITABLE given to nobody; as any other user, as it is.
#   as_user.sh KIT WRITABLE -- COMMAND [ARG...]
# When a folder above the kit is closed to others (a clone under /root), the command gets a
# mount namespace of its own in which the kit is at its own path under an open folder.
set -euo pipefail
kit="$1" writable="$2"
shift 3
[[ $(id -u) -eq 0 ]] || exec "$@"
mkdir -p "$writable"
chown -R 65534:65534 "$writable"
drop=(setpriv --reuid=65534 --regid=65534 --clear-groups --inh-caps=-all --bounding-set=-all)
closed=""
folder="$kit"
while [[ "$folder" != / ]]; do
  folder="$(dirname "$folder")"
  "${drop[@]}" test -x "$folder" || closed="$folder"
done
[[ -n "$closed" ]] || exec "${drop[@]}" "$@"
exec unshare --mount --propagation private bash -c '
  set -e
  kit="$1" closed="$2" held=/tmp/overlap-as-user-kit
  shift 2
  mkdir -p "$held"
  mount --bind "$kit" "$held"
  mount -t tmpfs -o mode=0755 overlap-as-user "$closed"
  mkdir -p "$kit"
  mount --bind "$held" "$kit"
  exec "$@"' as_user "$kit" "$closed" "${drop[@]}" "$@"
