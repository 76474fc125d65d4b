#!/usr/bin/env bash
# interrupt_mine.sh SIGNAL PTXBENCH
# `sft mine` interrupted while its teacher (a local endpoint that never answers,
# fake_endpoint.py silent) is asked for a repair: ptxbench must end within 10 s with 128 + the
# signal's number, say it was interrupted and that the same command goes on, leave MINE.db
# resumable (run status "running", no turn recorded) and no child behind.
set -u
sig=$1 ptxbench=$2
here=$(cd "$(dirname "$0")" && pwd)
. "$here/interrupt_lib.sh"
tmp=$(mktemp -d "${TMPDIR:-/tmp}/ptxbench-interrupt-mine-XXXXXX")
trap 'rm -rf "$tmp"' EXIT
cd "$tmp" || exit 1
export PTXBENCH_NO_GPU=1 PTXBENCH_CACHE="$tmp/cache"
"$ptxbench" run --tasks gemm_n7168_k5120 --turns 1 --out seed.db --no-progress >seed.txt 2>&1 ||
  { cat seed.txt; echo "FAIL: the seed run failed" >&2; exit 1; }
out="mine-$$-$RANDOM.db"
"$here/fake_endpoint.py" silent -- "$ptxbench" sft mine seed.db --model m --base-url '{URL}' \
  --out "$out" --request-timeout 60 >out.txt 2>&1 &
wrapper=$!
pid=""
for _ in $(seq 200); do pid=$(pgrep -f "^$ptxbench sft mine seed.db .*--out $out" | head -1)
  [ -n "$pid" ] && [ -f "$out" ] && break; sleep 0.05; done
[ -n "$pid" ] || { cat out.txt; echo "FAIL: sft mine never started" >&2; exit 1; }
sleep 1  # the teacher's request is in flight
signal_and_expect "$sig" "$pid" "$wrapper"
grep -q "the same command goes on" out.txt || { echo "FAIL: no resume advice" >&2; exit 1; }
status=$(sqlite3 "file:$out?mode=ro" "SELECT status FROM runs; SELECT COUNT(*) FROM turns;" | tr '\n' ' ')
[ "$status" = "running 0 " ] || { echo "FAIL: $out: '$status' (want 'running 0')" >&2; exit 1; }
if pgrep -f -- "^$ptxbench sft mine seed.db .*--out $out" >/dev/null; then
  echo "FAIL: a process is left" >&2; exit 1; fi
echo "ok: exit $got, $out resumable"
