#!/bin/bash
# One-off dev experiment (device call 4): bwd correctness details on the hidden workloads for the
# reference and a fully serialised variant (bisects a wgmma register hazard), and forward timing
# with and without the ping-pong knob. Everything is printed to stdout.
set -u
cd "$(dirname "$0")/../.."
B=/tmp/exp_build; mkdir -p $B
INC=""; [ -f build-attn/include/dlpack/dlpack.h ] && INC="-I build-attn/include"
NV="nvcc $INC -std=c++17 -O3 -shared -Xcompiler -fPIC -lineinfo -gencode=arch=compute_90a,code=sm_90a"
R=kernels/reference/sm_90a
sed 's/wgmma_wait<1>();/wgmma_wait<0>();/' $R/mha_bwd_d128.cu > $B/bwd_serial.cu
cp $R/mha_bwd_d128.cu $B/bwd.cu
$NV $B/bwd.cu -o $B/bwd.so & $NV $B/bwd_serial.cu -o $B/bwd_serial.so &
$NV -DPTXB_FWD_PINGPONG=0 $R/mha_with_lse_d128.cu -o $B/fwd0.so &
$NV -DPTXB_FWD_PINGPONG=1 $R/mha_with_lse_d128.cu -o $B/fwd1.so &
$NV -DPTXB_FWD_PINGPONG=1 $R/mha_with_lse_d128_causal.cu -o $B/fwdc1.so &
wait
for v in bwd bwd_serial; do
  echo "== $v"
  timeout 60 python3 kernels/attention_dev/check.py correct --kind bwd --so $B/$v.so --workloads hidden --trials 2
done
for v in fwd1; do
  echo "== $v correct"; timeout 60 python3 kernels/attention_dev/check.py correct --kind fwd --so $B/$v.so --workloads hidden --trials 1 | tail -1
done
echo "== fwdc1 correct"; timeout 60 python3 kernels/attention_dev/check.py correct --kind fwd --causal --so $B/fwdc1.so --workloads hidden --trials 1 | tail -1
for v in fwd0 fwd1; do echo "== $v time"; timeout 60 python3 kernels/attention_dev/check.py time --kind fwd --so $B/$v.so --iters 30; done
echo "== fwdc1 time"; timeout 60 python3 kernels/attention_dev/check.py time --kind fwd --causal --so $B/fwdc1.so --iters 30
