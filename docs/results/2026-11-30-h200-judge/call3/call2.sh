#!/usr/bin/env bash
set -u
out=${OUT:-/tmp/out}; mkdir -p $out
mkdir -p /work; [ -e /work/main ] || ln -sfn "$(pwd)" /work/main
cd /work/main
bin=/work/main/.devbin
export PTXBENCH_ROOT=/work/main PTXBENCH_CACHE=$bin/cache PTXBENCH_DLPACK_INCLUDE=$bin/include
export PATH=/usr/local/cuda/bin:$PATH LD_LIBRARY_PATH=/usr/local/cuda/lib64:/usr/lib/x86_64-linux-gnu
{ nvidia-smi --query-gpu=name,driver_version,clocks.sm --format=csv; $bin/ptxbench version; } 2>&1 | tee $out/info.log
timeout 420 python3 .probe/smoke.py $bin/ptxbench "$@" 2>&1 | tee $out/smoke.log
cd $out && tar czf smoke-logs.tgz smoke && rm -rf smoke
