#!/usr/bin/env bash
# scripts/fixit-e2e.sh refuses bad options before it starts anything: exit 2 and one line
# naming the option (no endpoint or training stack needed).
set -u
root=$(cd "$(dirname "$0")/../.." && pwd)
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
mkdir "$tmp/full" && touch "$tmp/full/x"
check() { # expected-substring args...
  local want=$1; shift
  out=$("$root/scripts/fixit-e2e.sh" "$@" 2>&1); rc=$?
  [ "$rc" -eq 2 ] && grep -q -- "$want" <<<"$out" || { echo "FAIL: $*: exit $rc, output: $out"; exit 1; }
}
check "unknown option --bogus" --bogus
check "--out DIR is required"
check "is not empty" --out "$tmp/full"
check "--steps abc: not a whole number" --out "$tmp/new" --steps abc
[ ! -e "$tmp/new" ] || { echo "FAIL: a refused run created its --out folder"; exit 1; }
"$root/scripts/fixit-e2e.sh" --help | grep -q -- "--short" || { echo "FAIL: --help lists no --short"; exit 1; }
echo "ok: bad options refused with exit 2"
