#!/usr/bin/env bash
# The SM load's kernel takes all of its SM (gpu/sm_load.cu hold_sm): 1024 threads of at least 57
# registers, which the GPU allocates 8 at a time, i.e. 64 each and the SM's whole register file
# (64K). A compiler that kept fewer values live would leave room for a block beside it, and the
# load would stop moving such blocks (red team leak8/zero_smem_coresident.cu). CPU only: ptxas's
# own report of the compiled kernel, no GPU.
#   sm_load_resources_test.sh NVCC SOURCE_DIR
set -euo pipefail
nvcc=$1 src=$2
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
report=$("$nvcc" -std=c++17 -arch=sm_90a -O3 -I "$src" -Xptxas -v -c "$src/eval/gpu/sm_load.cu" \
  -o "$out/sm_load.o" 2>&1)
line=$(grep -A3 "Compiling entry function '.*hold_sm" <<< "$report" | grep 'Used [0-9]* registers' || true)
[ -n "$line" ] || { echo "FAIL: ptxas reported no register count for hold_sm:"; echo "$report"; exit 1; }
regs=$(sed -E 's/.*Used ([0-9]+) registers.*/\1/' <<< "$line")
spills=$(grep -A3 "Compiling entry function '.*hold_sm" <<< "$report" | grep -c ' 0 bytes spill stores' || true)
echo "hold_sm: $regs registers a thread (allocated as $(( (regs + 7) / 8 * 8 ))), spill-free: $spills"
[ "$regs" -ge 57 ] && [ "$regs" -le 64 ] || { echo "FAIL: hold_sm must use 57-64 registers"; exit 1; }
[ "$spills" = 1 ] || { echo "FAIL: hold_sm spills registers"; exit 1; }
echo "ok"
