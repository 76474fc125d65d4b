#!/bin/bash
# Static SASS census of the attention references and controls (runs here, no GPU): builds each
# with the ptxbench nvcc command and counts the target-family opcodes in cuobjdump -sass.
set -u
cd "$(dirname "$0")/../.."
export PATH=$PWD/.deps/bin:$PATH
T=${TMPDIR:-/tmp}/attn_census; mkdir -p $T
for f in kernels/reference/sm_90a/mha_*.cu kernels/reference/sm_100a/mha_*.cu kernels/controls/attention/*.cu; do
  arch=sm_90a; [[ $f == *sm_100a* ]] && arch=sm_100a
  n=$(basename $(dirname $f))_$(basename $f .cu)
  if ! nvcc -std=c++17 -O3 -shared -Xcompiler -fPIC -lineinfo -Xptxas -v -gencode=arch=compute_${arch#sm_},code=$arch \
      $f -o $T/$n.so >$T/$n.log 2>&1; then
    echo "$n ($arch): compile_error"; continue
  fi
  regs=$(grep -oE "Used [0-9]+ registers" $T/$n.log | awk '{print $2}' | sort -n | tail -1)
  spill=$(grep -oE "[0-9]+ bytes spill stores" $T/$n.log | awk '{s+=$1} END {print s+0}')
  ops=$(cuobjdump -sass $T/$n.so | grep -oE "\b(HGMMA|UTMALDG|UTMASTG|UBLKCP|USETMAXREG|UTCHMMA|UTCBAR|UTCATOMSWS|LDTM|STTM|SYNCS\.[A-Z.0-9]*)\b" \
    | sed 's/SYNCS\..*/SYNCS/' | sort | uniq -c | awk '{printf "%s=%s ", $2, $1}')
  echo "$n ($arch): max_regs=$regs spill_bytes=$spill $ops"
done
