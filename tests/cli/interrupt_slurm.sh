#!/usr/bin/env bash
# interrupt_slurm.sh PTXBENCH: `slurm submit` with an sbatch that hangs, sent SIGINT once sbatch
# runs. Passes when ptxbench ends within 5 s with 130, saying it was interrupted, and no sbatch
# is left running (campaign 4, X16: it waited for sbatch, then exited 1).
set -u
ptxbench=$1
tmp=$(mktemp -d "${TMPDIR:-/tmp}/ptxbench-interrupt-slurm-XXXXXX")
tag="ptxbench-fake-sbatch-$$-$RANDOM"
trap 'for p in $(pgrep -f "$tag"); do kill -KILL "$p"; done; rm -rf "$tmp"' EXIT
cd "$tmp" || exit 1
mkdir bin
printf '#!/bin/bash\nexec -a %s sleep 30\n' "$tag" > bin/sbatch
chmod +x bin/sbatch
PATH=$tmp/bin:$PATH "$ptxbench" slurm submit --shards 2 --dir d >out.txt 2>&1 &
pid=$!
for _ in $(seq 200); do pgrep -f "$tag" >/dev/null && break; sleep 0.05; done
pgrep -f "$tag" >/dev/null || { cat out.txt; echo "FAIL: the fake sbatch never started" >&2; exit 1; }
start=$(date +%s)
kill -INT "$pid"
wait "$pid"
code=$? took=$(($(date +%s) - start))
cat out.txt
[ "$code" = 130 ] || { echo "FAIL: exit code $code, expected 130" >&2; exit 1; }
[ "$took" -le 5 ] || { echo "FAIL: took $took s to stop" >&2; exit 1; }
grep -q "interrupted (SIGINT)" out.txt || { echo "FAIL: it did not say it was interrupted" >&2; exit 1; }
sleep 0.2
if pgrep -f "$tag" >/dev/null; then echo "FAIL: sbatch is still running" >&2; exit 1; fi
echo "ok: stopped in ${took} s"
