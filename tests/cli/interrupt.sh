#!/usr/bin/env bash
# interrupt.sh SIGNAL PTXBENCH compile|run|eval|rejudge ARGS...
# Runs `PTXBENCH compile|run ARGS...` in a scratch folder with a compiler that hangs
# (fake_nvcc_hang.sh) and no GPU, and sends it SIGNAL (INT or TERM) once the compiler runs.
# Passes when ptxbench ends within 10 s with 128 + the signal's number, saying it was
# interrupted (SIGINT/SIGTERM); no compiler process is left; the compile cache holds nothing
# (no build folder and no entry: an interrupted nvcc caches nothing). For `run` (ARGS give
# --out r.db) also: it prints how to resume, and the run file is consistent and resumable
# (its run status is "running" and no turn was recorded for the stopped one). For `rejudge`
# (ARGS: r.db --out new.db) r.db is first made by a one-turn scripted run with the real
# compiler; then: it says nothing was written, and neither new.db nor a temporary folder is left.
set -u
sig=$1 ptxbench=$2 cmd=$3
shift 3
here=$(cd "$(dirname "$0")" && pwd)
. "$here/interrupt_lib.sh"
tmp=$(mktemp -d "${TMPDIR:-/tmp}/ptxbench-interrupt-XXXXXX")
# The hanging compiler's name while it hangs, to find only this test's processes.
tag="ptxbench-fake-nvcc-$$-$RANDOM"
trap 'for p in $(pgrep -f "^$tag"); do kill -KILL "$p"; done; rm -rf "$tmp"' EXIT
cd "$tmp" || exit 1
if [ "$cmd" = rejudge ]; then
  PTXBENCH_NO_GPU=1 PTXBENCH_CACHE="$tmp/seed-cache" "$ptxbench" run --tasks gemm_n7168_k5120 \
    --turns 1 --out r.db --no-progress >/dev/null 2>&1 || { echo "FAIL: no run to rejudge" >&2; exit 1; }
fi
FAKE_NVCC_TAG=$tag PTXBENCH_NVCC="$here/fake_nvcc_hang.sh" PTXBENCH_CACHE="$tmp/cache" \
  PTXBENCH_NO_GPU=1 "$ptxbench" "$cmd" "$@" >out.txt 2>&1 &
pid=$!
for _ in $(seq 200); do pgrep -f "^$tag" >/dev/null && break; sleep 0.05; done
pgrep -f "^$tag" >/dev/null || { cat out.txt; echo "FAIL: the fake nvcc never started" >&2; exit 1; }
signal_and_expect "$sig" "$pid" "$pid"
sleep 0.2
if pgrep -f "^$tag" >/dev/null; then echo "FAIL: the compiler is still running" >&2; exit 1; fi
left=$(ls -A cache/compile 2>/dev/null)
[ -z "$left" ] || { echo "FAIL: left in the compile cache: $left" >&2; exit 1; }
if [ "$cmd" = run ]; then
  grep -q "resume with: ptxbench run --resume r.db" out.txt || { echo "FAIL: no resume line" >&2; exit 1; }
  status=$(sqlite3 "file:r.db?mode=ro" "SELECT status FROM runs; SELECT COUNT(*) FROM turns;" | tr '\n' ' ')
  [ "$status" = "running 0 " ] || { echo "FAIL: run file: '$status' (want 'running 0')" >&2; exit 1; }
fi
if [ "$cmd" = rejudge ]; then
  grep -q "): nothing was written" out.txt || { echo "FAIL: no 'nothing was written'" >&2; exit 1; }
  left=$(ls -A | grep -v -x -e r.db -e out.txt -e cache -e seed-cache)
  [ -z "$left" ] || { echo "FAIL: left beside the run: $left" >&2; exit 1; }
fi
echo "ok: exit $got, compiler stopped, compile cache empty"
