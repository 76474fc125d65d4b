#!/usr/bin/env bash
# interrupt_compile.sh SIGNAL PTXBENCH KERNEL TASK
# Sends SIGNAL (INT or TERM) to `ptxbench compile` while its (fake, hanging) nvcc runs, and
# passes when ptxbench exits 128 + the signal's number saying it was interrupted, the
# compiler is no longer running, and the compile cache holds no build folder or entry.
set -u
sig=$1 ptxbench=$2 kernel=$3 task=$4
here=$(cd "$(dirname "$0")" && pwd)
tmp=$(mktemp -d "${TMPDIR:-/tmp}/ptxbench-interrupt-XXXXXX")
tag="ptxbench-fake-nvcc-$$-$RANDOM"
trap 'for p in $(pgrep -f "^$tag"); do kill -KILL "$p"; done; rm -rf "$tmp"' EXIT
FAKE_NVCC_TAG=$tag PTXBENCH_NVCC="$here/fake_nvcc_hang.sh" PTXBENCH_CACHE="$tmp/cache" \
  "$ptxbench" compile "$kernel" --task "$task" --timeout 60 >"$tmp/out" 2>&1 &
pid=$!
for _ in $(seq 200); do pgrep -f "^$tag" >/dev/null && break; sleep 0.05; done
pgrep -f "^$tag" >/dev/null || { cat "$tmp/out"; echo "FAIL: the fake nvcc never started" >&2; exit 1; }
kill -"$sig" "$pid"
wait "$pid"
got=$?
cat "$tmp/out"
want=$((128 + $(kill -l "$sig")))
[ "$got" -eq "$want" ] || { echo "FAIL: exit code $got, expected $want" >&2; exit 1; }
grep -q "interrupted (SIG$sig): nvcc was stopped" "$tmp/out" || { echo "FAIL: no interruption message" >&2; exit 1; }
sleep 0.2
if pgrep -f "^$tag" >/dev/null; then echo "FAIL: the compiler is still running" >&2; exit 1; fi
left=$(ls -A "$tmp/cache/compile" 2>/dev/null)
[ -z "$left" ] || { echo "FAIL: left in the compile cache: $left" >&2; exit 1; }
echo "ok: exit $got, compiler stopped, cache empty"
