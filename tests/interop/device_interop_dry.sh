#!/usr/bin/env bash
# device_interop_dry.sh PTXBENCH ROOT: scripts/device-interop.sh's round trip on a CPU machine
# (DRY=1: both evals compile and audit statically): each reference kernel is exported to a
# FlashInfer-Trace dataset, its solution and definition come back, the imported source is the
# original byte for byte and both verdicts agree. The GPU run is device-run.sh's phase interop.
set -u
ptxbench=$1 root=$2
tmp=$(mktemp -d) || exit 1
trap 'rm -rf "$tmp"' EXIT
PTXBENCH_CACHE=$tmp/cache DRY=1 "$root/scripts/device-interop.sh" "$tmp/out" "$ptxbench" > "$tmp/log" 2>&1
rc=$?
cat "$tmp/log"
[ $rc -eq 0 ] || { echo "FAIL: device-interop.sh exited $rc" >&2; exit 1; }
[ "$(grep -c 'same verdict$' "$tmp/log")" = 2 ] || { echo "FAIL: expected two 'same verdict' lines" >&2; exit 1; }
for k in gemm_n7168_k5120 mha_with_lse_d128; do
  [ -n "$(find "$tmp/out/$k/tasks" -name "$k.toml")" ] || { echo "FAIL: import-fib wrote no task for $k" >&2; exit 1; }
done
echo "ok: export -> import round trip gives the same source and verdict"
