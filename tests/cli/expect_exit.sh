#!/usr/bin/env bash
# expect_exit.sh CODE REGEX [--empty-cache] -- COMMAND...
# Runs COMMAND with a fresh PTXBENCH_CACHE and passes when it exits with CODE and its
# stderr+stdout match REGEX (grep -E; "" matches anything). With --empty-cache it also
# requires that the run left no entry (and no build directory) in the compile cache.
set -u
want=$1 regex=$2
shift 2
empty_cache=0
if [ "${1:-}" = "--empty-cache" ]; then empty_cache=1; shift; fi
[ "${1:-}" = "--" ] && shift
cache=$(mktemp -d "${TMPDIR:-/tmp}/ptxbench-cli-test-XXXXXX")
trap 'rm -rf "$cache"' EXIT
out=$(PTXBENCH_CACHE="$cache" "$@" 2>&1)
got=$?
echo "$out"
if [ "$got" -ne "$want" ]; then
  echo "FAIL: exit code $got, expected $want: $*" >&2
  exit 1
fi
if [ -n "$regex" ] && ! grep -Eq -- "$regex" <<<"$out"; then
  echo "FAIL: output does not match /$regex/: $*" >&2
  exit 1
fi
if [ "$empty_cache" -eq 1 ] && [ -d "$cache/compile" ] && [ -n "$(ls -A "$cache/compile")" ]; then
  echo "FAIL: the compile cache is not empty: $(ls -A "$cache/compile")" >&2
  exit 1
fi
echo "ok: exit $got"
