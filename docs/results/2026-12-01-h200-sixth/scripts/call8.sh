#!/usr/bin/env bash
# Sixth session, call 3: repeatability of the references' speedups over 5 separate processes.
set -u
b=/work/main/.devbin/ptxbench
o=${OUT:-/tmp}
for k in gemm_n7168_k5120 mha_with_lse_d128; do
  echo "== $k"
  bash bench/repeatability.sh kernels/reference/sm_90a/$k.cu $k 5 "$b"
done 2>&1 | tee "$o/repeat2.log"
