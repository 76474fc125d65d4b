#!/usr/bin/env bash
# interrupt_run.sh SIGNAL PTXBENCH: `ptxbench run` with a compiler that hangs
# (fake_nvcc_hang.sh), sent SIGNAL once the compiler runs. Passes when ptxbench ends within
# seconds with 128 + the signal, prints how to resume, leaves no compiler process and no
# build folder behind, and the run file is consistent (nothing half-written, still
# resumable: its run status is "running" and no turn was recorded for the stopped one).
set -u
sig=$1 ptxbench=$2
here=$(cd "$(dirname "$0")" && pwd)
scratch=$(mktemp -d "${TMPDIR:-/tmp}/ptxbench-interrupt-XXXXXX")
trap 'rm -rf "$scratch"' EXIT
cd "$scratch" || exit 1
mkdir cache
# A copy of the hanging compiler under a name only this test uses, to find its processes.
cp "$here/fake_nvcc_hang.sh" nvcc-hang-$$
PTXBENCH_CACHE=$scratch/cache PTXBENCH_NVCC=$scratch/nvcc-hang-$$ PTXBENCH_NO_GPU=1 \
  "$ptxbench" run --tasks gemm_n7168_k5120 --out r.db --no-progress >out.txt 2>&1 &
pid=$!
for _ in $(seq 100); do pgrep -f "nvcc-hang-$$ " >/dev/null && break; sleep 0.1; done
pgrep -f "nvcc-hang-$$ " >/dev/null || { echo "FAIL: the compiler never started"; cat out.txt; exit 1; }
kill -"$sig" "$pid"
start=$(date +%s)
wait "$pid"
rc=$?
cat out.txt
want=$((128 + $(kill -l "$sig")))
[ "$rc" -eq "$want" ] || { echo "FAIL: exit $rc, expected $want"; exit 1; }
[ $(($(date +%s) - start)) -le 10 ] || { echo "FAIL: took more than 10 s to stop"; exit 1; }
grep -q "resume with: ptxbench run --resume r.db" out.txt || { echo "FAIL: no resume line"; exit 1; }
sleep 0.3
if pgrep -f "nvcc-hang-$$ " >/dev/null; then echo "FAIL: the compiler is still running"; exit 1; fi
left=$(find cache -name '.build-*' -o -name 'build-*' | head -3)
[ -z "$left" ] || { echo "FAIL: build folders left: $left"; exit 1; }
status=$(sqlite3 "file:r.db?mode=ro" "SELECT status FROM runs; SELECT COUNT(*) FROM turns;" | tr '\n' ' ')
[ "$status" = "running 0 " ] || { echo "FAIL: run file: '$status' (want 'running 0')"; exit 1; }
echo "ok: exit $rc"
