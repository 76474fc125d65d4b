#!/usr/bin/env bash
# lock.sh PTXBENCH
# Two processes never write one run file. While `ptxbench run` writes r.db (its compiler
# hangs: fake_nvcc_hang.sh, no GPU), a `run --resume r.db` is refused at once with exit 2,
# naming the file and the writer's pid, and changes nothing. Once the writer is killed with
# SIGKILL (no cleanup at all; its hanging compiler even outlives it), the lock is gone: a
# resume gets past it and says it is resuming.
set -u
ptxbench=$1
here=$(cd "$(dirname "$0")" && pwd)
tmp=$(mktemp -d "${TMPDIR:-/tmp}/ptxbench-lock-XXXXXX")
tag="ptxbench-fake-nvcc-$$-$RANDOM"  # the hanging compilers' name, to find only ours
trap 'for p in $(pgrep -f "^$tag"); do kill -KILL "$p"; done; rm -rf "$tmp"' EXIT
cd "$tmp" || exit 1
fail() { echo "FAIL: $*" >&2; exit 1; }
export FAKE_NVCC_TAG=$tag PTXBENCH_NVCC="$here/fake_nvcc_hang.sh" PTXBENCH_CACHE="$tmp/cache" \
  PTXBENCH_NO_GPU=1
state() { sha256sum r.db* 2>/dev/null; }

"$ptxbench" run --tasks gemm_n7168_k5120 --turns 1 --out r.db --no-progress >first.txt 2>&1 &
first=$!
for _ in $(seq 400); do pgrep -f "^$tag" >/dev/null && break; sleep 0.05; done
pgrep -f "^$tag" >/dev/null || { cat first.txt; fail "the first run's compiler never started"; }

before=$(state)
second=$(timeout 30 "$ptxbench" run --resume r.db --no-progress 2>&1)
got=$?
echo "$second"
[ "$got" -eq 2 ] || fail "a second writer: exit code $got, expected 2"
grep -q "r.db is being written by another process (pid $first: " <<<"$second" ||
  fail "the refusal does not name r.db and pid $first"
[ "$(state)" = "$before" ] || fail "the refused resume changed the run file"

kill -KILL "$first"
wait "$first" 2>/dev/null
"$ptxbench" run --resume r.db --no-progress >third.txt 2>&1 &
third=$!
for _ in $(seq 400); do grep -q "resuming r.db" third.txt && break; sleep 0.05; done
kill -TERM "$third"
wait "$third"
cat third.txt
grep -q "resuming r.db" third.txt || fail "after SIGKILL of the writer, a resume did not get the lock"
grep -q "being written by another process" third.txt && fail "the killed writer's lock was kept"
echo "ok: a second writer refused with exit 2, the lock released by SIGKILL"
