#!/usr/bin/env bash
# --concurrency against the real local server: the same 4 requests at 1 and at 4 in flight.
set -u
cd /work/main
rm -rf /tmp/cc; mkdir -p /tmp/cc
PTXBENCH_ENDPOINT_PORT=8093 scripts/endpoint-start.sh /tmp/cc/server
for c in 1 4; do
  t0=$(date +%s.%N)
  PTXBENCH_NO_GPU=1 build/ptxbench run --model gemma-3-270m --base-url http://127.0.0.1:8093/v1 \
    --tasks gemm_n7168_k5120 --samples 4 --turns 1 --max-tokens 200 --context none \
    --concurrency $c --request-timeout 1200 --out /tmp/cc/c$c.db --no-progress > /tmp/cc/c$c.log 2>&1
  t1=$(date +%s.%N)
  echo "concurrency $c: exit $? wall $(python3 -c "print(round($t1-$t0,1))") s; $(grep -m1 'all sm_90a' /tmp/cc/c$c.log)"
done
scripts/endpoint-stop.sh /tmp/cc/server
