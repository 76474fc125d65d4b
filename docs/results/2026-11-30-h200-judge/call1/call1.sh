#!/usr/bin/env bash
# Device call 1 (probe, 2026-11-30): CUDA IPC across processes/users, and CUPTI SASS metrics
# with lazy vs non-lazy patching on multi-launch / multi-kernel candidates.
set -u
out=${OUT:-/tmp/out}; mkdir -p $out
mkdir -p /work; [ -e /work/main ] || ln -sfn "$(pwd)" /work/main
cd /work/main
export LD_LIBRARY_PATH=/usr/local/cuda/lib64:${LD_LIBRARY_PATH:-}
{ nvidia-smi --query-gpu=name,driver_version,clocks.sm --format=csv; uname -r; } 2>&1 | tee $out/info.log
for m in same drop; do .probe/ipc_probe $([ $m = drop ] && echo drop) 2>&1 | tee -a $out/ipc.log; done
W=.devbin-old/ptxbench-audit-worker
gemm="--tensor in:bf16:1000x5120 --tensor in:bf16:7168x5120 --tensor out:bf16:1000x7168"
bwd="--tensor in:bf16:2x8x1024x128 --tensor in:bf16:2x8x1024x128 --tensor in:bf16:2x8x1024x128 --tensor in:bf16:2x8x1024x128 --tensor in:bf16:2x8x1024x128 --tensor in:fp32:2x8x1024 --tensor out:bf16:2x8x1024x128 --tensor out:bf16:2x8x1024x128 --tensor out:bf16:2x8x1024x128"
summ() { python3 - "$1" <<'PY'
import json,sys,collections
j=json.load(open(sys.argv[1]+"/result.json"))
per=collections.defaultdict(lambda:[0,0,0])
for r in j.get("records",[]):
    p=per[r["function"][:60]]; p[0]+=1; p[1]+=r["inst_executed"]; p[2]+=r["thread_inst_executed_pred_on"]
print(" launches:",collections.Counter(l["function"][:40] for l in j.get("launches",[])), "err:", j.get("cupti_error"), j.get("candidate_error",""))
for f,(n,w,t) in per.items(): print(f"  {f}: pcs {n} warp_inst {w} thread_pred_on {t}")
PY
}
for case in first:.probe/so/first_launch_only_wgmma.so:gemm two:.probe/so/two_kernels_gemm.so:gemm bwd:.probe/so/mha_bwd_d128.so:bwd; do
  IFS=: read name so t <<< "$case"; args=${!t}
  for flags in "" "--enable-at start --no-lazy" "--enable-at start --no-lazy --late-config" "--enable-at start"; do
    d=/tmp/a-$name-$(echo "$flags" | tr -d ' -'); mkdir -p $d
    echo "== $name [$flags]"
    timeout 120 $W --mode sass --so $so --out $d $args $flags > $d/log 2>&1; echo " exit $?"
    summ $d
  done
done 2>&1 | tee $out/cupti.log
